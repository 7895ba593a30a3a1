import FetchStorage
import Logging
import PostgresNIO
import Synchronization

/// Listens, on a connection of the store's pool, to the channel on which the database tells
/// every change of a user's version (the trigger on `user_versions`, migration 3), and passes
/// it on as ``VersionNews``; listens again after a lost connection.
///
/// A payload is `version<TAB>user` (`-1` for a deleted user), or `sync<TAB>n` for
/// ``catchUp(_:)``: notifications reach a listener in the order their transactions
/// committed, so once its own comes back, every change committed before it has been told.
final class VersionWatcher: Sendable {
    static let channel = "fetchsched_versions"
    /// How long ``catchUp(_:)`` waits for its own notification.
    static let catchUpWait = Duration.seconds(5)
    /// How often the listener checks that its notifications still arrive.
    static let heartbeat = Duration.seconds(5)

    private struct State: ~Copyable {
        var task: Task<Void, Never>?
        var listening = false
        var lastToken = 0
        var waiting: [Int: CheckedContinuation<Bool, Never>] = [:]
        /// Tokens heard before their waiter was registered, and tokens given up on before it was.
        var early: Set<Int> = []
        var expired: Set<Int> = []
        /// Every token up to this one was given before the listener was last lost: its answer
        /// will never come, and a waiter that registers late is answered at once.
        var forgotten = 0
    }

    private let state = Mutex(State())

    /// Starts listening (once; later calls do nothing), telling `receive` what it hears.
    /// `statement` runs one statement on a pooled connection, bounded as the store's requests are
    /// (``PostgresStore/connection(_:)``): the heartbeat sends its notification through it.
    func start(client: PostgresClient, logger: Logger, statement: @escaping @Sendable (PostgresQuery) async throws -> Void,
               receive: @escaping @Sendable (VersionNews) -> Void) {
        state.withLock { s in
            guard s.task == nil else { return }
            s.task = Task { [self] in
                while !Task.isCancelled {
                    do {
                        // Listening, with a heartbeat through the pool: a connection that died
                        // without a word (a partition, a crashed host) is noticed within
                        // heartbeat + catchUpWait, and listening starts again on another.
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask { [self] in
                                try await client.withConnection { conn in
                                    try await conn.listen(on: Self.channel) { notes in
                                        state.withLock { $0.listening = true }
                                        receive(.listening)
                                        for try await note in notes { hear(note.payload, receive) }
                                    }
                                }
                            }
                            group.addTask { [self] in
                                while true {
                                    try await Task.sleep(for: Self.heartbeat)
                                    try await catchUp(statement)
                                }
                            }
                            defer { group.cancelAll() }
                            try await group.next()
                        }
                    } catch {
                        logger.debug("version notifications stopped", metadata: ["error": "\(String(reflecting: error))"])
                    }
                    let waiters = state.withLock { s in
                        s.listening = false
                        s.forgotten = s.lastToken
                        defer { s.waiting = [:]; s.early = []; s.expired = [] }
                        return s.waiting.values
                    }
                    receive(.lost)
                    for w in waiters { w.resume(returning: false) }
                    try? await Task.sleep(for: .seconds(1))  // then listen again, on a new connection
                }
            }
        }
    }

    /// Stops listening and waits for the listener to end.
    func stop() async {
        let task = state.withLock { $0.task }
        task?.cancel()
        _ = await task?.value
    }

    private func hear(_ payload: String, _ receive: @Sendable (VersionNews) -> Void) {
        guard let tab = payload.firstIndex(of: "\t") else { return }
        let head = payload[..<tab], tail = String(payload[payload.index(after: tab)...])
        if head == "sync" {
            guard let token = Int(tail) else { return }
            let waiter = state.withLock { s -> CheckedContinuation<Bool, Never>? in
                if let w = s.waiting.removeValue(forKey: token) { return w }
                s.early.insert(token)
                return nil
            }
            waiter?.resume(returning: true)
        } else if let version = Int64(head) {
            receive(.moved(user: tail, version: version < 0 ? nil : version))
        }
    }

    /// Returns once every change committed before the call has been told; at once when not
    /// listening. Throws ``StoreUnavailable`` when its own notification does not come back
    /// within ``catchUpWait``.
    func catchUp(_ statement: @escaping @Sendable (PostgresQuery) async throws -> Void) async throws {
        guard let token = state.withLock({ s -> Int? in
            guard s.listening else { return nil }
            s.lastToken += 1
            return s.lastToken
        }) else { return }
        let heard = await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                // Sent within the wait, so that a store that gives no connection is bounded too.
                do {
                    try await statement("SELECT pg_notify(\(Self.channel), \("sync\t\(token)"))")
                } catch {
                    return false
                }
                return await withCheckedContinuation { c in
                    let now = state.withLock { s -> Bool? in
                        if s.early.remove(token) != nil { return true }
                        // Given up on, or asked before the listener was lost (and its record of
                        // waiters cleared): no one else would ever answer this waiter.
                        if s.expired.remove(token) != nil || token <= s.forgotten { return false }
                        s.waiting[token] = c
                        return nil
                    }
                    if let now { c.resume(returning: now) }
                }
            }
            group.addTask { [self] in
                try? await Task.sleep(for: Self.catchUpWait)
                if Task.isCancelled { return false }  // heard meanwhile
                state.withLock { s -> CheckedContinuation<Bool, Never>? in
                    if let w = s.waiting.removeValue(forKey: token) { return w }
                    s.expired.insert(token)
                    return nil
                }?.resume(returning: false)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard heard else { throw StoreUnavailable("the store's version notifications did not come back within \(Self.catchUpWait)") }
    }
}
