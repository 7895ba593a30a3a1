import FetchStorage
import Foundation

/// The users' slots, made on first use and bounded: past `capacity`, the least recently used
/// slot is dropped (its session is rebuilt from the store when next needed).
///
/// Hand-written because swift-collections has no LRU: a dictionary into a doubly linked list
/// kept in arrays, so a use and an eviction are O(1) and nothing is allocated per request.
final class SlotTable: @unchecked Sendable {
    private let lock = NSLock()
    let capacity: Int
    private var index: [String: Int] = [:]
    private var entries: [Entry] = []
    private var free: [Int] = []
    /// Most recently used first; -1 when empty.
    private var head = -1
    private var tail = -1
    /// Called (outside the lock) once per slot dropped for room.
    private let onEvict: @Sendable () -> Void

    private struct Entry {
        var user: String
        var slot: UserSlot?
        var newer = -1
        var older = -1
    }

    init(capacity: Int, onEvict: @escaping @Sendable () -> Void = {}) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.onEvict = onEvict
    }

    /// The slot of `user`, made (and the oldest dropped, when full) if there is none.
    func slot(_ user: String) -> UserSlot {
        lock.lock()
        if let i = index[user] {
            touch(i)
            let s = entries[i].slot!
            lock.unlock()
            return s
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
        lock.unlock()
        if evicted { onEvict() }
        return s
    }

    /// The slot of `user` if one is held (not counted as a use).
    func existing(_ user: String) -> UserSlot? {
        lock.lock()
        defer { lock.unlock() }
        return index[user].flatMap { entries[$0].slot }
    }

    /// Drops every slot's session (the slots stay, for their places in the order).
    func invalidateAll() {
        lock.lock()
        let all = entries.compactMap(\.slot)
        lock.unlock()
        for slot in all { slot.invalidate() }  // each under its own lock, not the table's
    }

    func remove(_ user: String) {
        lock.lock()
        defer { lock.unlock() }
        if let i = index[user] { remove(at: i) }
    }

    /// How many slots are held.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return index.count
    }

    private func remove(at i: Int) {
        unlink(i)
        index[entries[i].user] = nil
        entries[i] = Entry(user: "", slot: nil)
        free.append(i)
    }

    private func touch(_ i: Int) {
        guard head != i else { return }
        unlink(i)
        link(i)
    }

    private func link(_ i: Int) {
        entries[i].newer = -1
        entries[i].older = head
        if head >= 0 { entries[head].newer = i }
        head = i
        if tail < 0 { tail = i }
    }

    private func unlink(_ i: Int) {
        let (newer, older) = (entries[i].newer, entries[i].older)
        if newer >= 0 { entries[newer].older = older } else { head = older }
        if older >= 0 { entries[older].newer = newer } else { tail = newer }
    }
}
