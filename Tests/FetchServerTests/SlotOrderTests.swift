import FetchCore
@testable import FetchServer
import Testing

/// The users' slots in the order of their last use (``SlotOrder``), checked against a plain list
/// under random uses and removals: the same slots held, the least recently used dropped for room.
struct SlotOrderTests {
    @Test(arguments: [1, 2, 3, 4])
    func randomUsesKeepTheMostRecentlyUsedAndDropTheLeast(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let capacity = 1 + Int(rng.next() % 6)
        var order = SlotOrder(capacity: capacity)
        var model: [String] = []  // most recently used first
        var slots: [String: UserSlot] = [:]
        for _ in 0..<2_000 {
            let user = "u\(rng.next() % 10)"
            switch rng.next() % 4 {
            case 0:
                order.remove(user)
                model.removeAll { $0 == user }
            case 1:
                #expect((order.existing(user) != nil) == model.contains(user))
            default:
                let (slot, evicted) = order.slot(user)
                if let i = model.firstIndex(of: user) {
                    #expect(slot === slots[user] && !evicted)
                    model.remove(at: i)
                } else {
                    #expect(evicted == (model.count == capacity))
                    if evicted { slots[model.removeLast()] = nil }
                    slots[user] = slot
                }
                model.insert(user, at: 0)
            }
            #expect(order.count == model.count && order.count <= capacity)
            #expect(Set(order.all.map(ObjectIdentifier.init)) == Set(model.compactMap { slots[$0] }.map(ObjectIdentifier.init)))
        }
    }
}
