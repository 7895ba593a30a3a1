import Foundation

/// The users' slots, made on first use.
final class SlotTable: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [String: UserSlot] = [:]

    func slot(_ user: String) -> UserSlot {
        lock.lock()
        defer { lock.unlock() }
        if let s = slots[user] { return s }
        let s = UserSlot()
        slots[user] = s
        return s
    }

    /// The slot of `user` if one was made.
    func existing(_ user: String) -> UserSlot? {
        lock.lock()
        defer { lock.unlock() }
        return slots[user]
    }

    func remove(_ user: String) {
        lock.lock()
        defer { lock.unlock() }
        slots[user] = nil
    }
}
