import Synchronization

/// The users' slots, made on first use and bounded: past `capacity`, the least recently used
/// slot is dropped (its session is rebuilt from the store when next needed).
///
/// The order is a value (``SlotOrder``) behind a `Mutex`; dropping a slot for room is counted
/// (`onEvict`) after the lock is let go.
final class SlotTable: Sendable {
    private let order: Mutex<SlotOrder>
    /// Called (outside the lock) once per slot dropped for room.
    private let onEvict: @Sendable () -> Void

    init(capacity: Int, onEvict: @escaping @Sendable () -> Void = {}) {
        precondition(capacity > 0)
        self.order = Mutex(SlotOrder(capacity: capacity))
        self.onEvict = onEvict
    }

    /// The slot of `user`, made (and the oldest dropped, when full) if there is none.
    func slot(_ user: String) -> UserSlot {
        let (slot, evicted) = order.withLock { $0.slot(user) }
        if evicted { onEvict() }
        return slot
    }

    /// The slot of `user` if one is held (not counted as a use).
    func existing(_ user: String) -> UserSlot? {
        order.withLock { $0.existing(user) }
    }

    /// Drops every slot's session (the slots stay, for their places in the order).
    func invalidateAll() {
        let all = order.withLock { $0.all }
        for slot in all { slot.invalidate() }  // each under its own lock, not the table's
    }

    func remove(_ user: String) {
        order.withLock { $0.remove(user) }
    }

    /// How many slots are held.
    var count: Int { order.withLock { $0.count } }
}
