/// The slots of a ``SlotTable`` in the order of their last use: a dictionary into a doubly
/// linked list kept in arrays, so a use and an eviction are O(1) and nothing is allocated per
/// request. Hand-written because swift-collections has no LRU.
struct SlotOrder {
    let capacity: Int
    private var index: [String: Int] = [:]
    private var entries: [Entry] = []
    private var free: [Int] = []
    /// Most recently used first; -1 when empty.
    private var head = -1
    private var tail = -1

    private struct Entry {
        var user: String
        var slot: UserSlot?
        var newer = -1
        var older = -1
    }

    init(capacity: Int) { self.capacity = capacity }

    /// The slot of `user`, made if there is none, and whether the oldest was dropped for it.
    mutating func slot(_ user: String) -> (UserSlot, evicted: Bool) {
        if let i = index[user] {
            touch(i)
            return (entries[i].slot!, false)
        }
        var evicted = false
        if index.count >= capacity {
            remove(at: tail)
            evicted = true
        }
        let s = UserSlot()
        let entry = Entry(user: user, slot: s)
        let i: Int
        if let f = free.popLast() { i = f; entries[i] = entry } else { i = entries.count; entries.append(entry) }
        index[user] = i
        link(i)
        return (s, evicted)
    }

    func existing(_ user: String) -> UserSlot? {
        index[user].flatMap { entries[$0].slot }
    }

    /// Every slot held.
    var all: [UserSlot] { entries.compactMap(\.slot) }

    var count: Int { index.count }

    mutating func remove(_ user: String) {
        if let i = index[user] { remove(at: i) }
    }

    private mutating func remove(at i: Int) {
        unlink(i)
        index[entries[i].user] = nil
        entries[i] = Entry(user: "", slot: nil)
        free.append(i)
    }

    private mutating func touch(_ i: Int) {
        guard head != i else { return }
        unlink(i)
        link(i)
    }

    private mutating func link(_ i: Int) {
        entries[i].newer = -1
        entries[i].older = head
        if head >= 0 { entries[head].newer = i }
        head = i
        if tail < 0 { tail = i }
    }

    private mutating func unlink(_ i: Int) {
        let (newer, older) = (entries[i].newer, entries[i].older)
        if newer >= 0 { entries[newer].older = older } else { head = older }
        if older >= 0 { entries[older].newer = newer } else { tail = newer }
    }
}
