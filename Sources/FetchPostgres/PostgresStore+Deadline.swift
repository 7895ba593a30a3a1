import FetchStorage
import NIOConcurrencyHelpers
import PostgresNIO

extension PostgresStore {
    /// Runs a transaction's `work` on `conn` within `wait` of its start: a database
    /// that stops answering (frozen, or a network that drops packets without a word) makes the
    /// request fail with ``StoreUnavailable`` in that bound instead of waiting as long as the
    /// database does.
    ///
    /// Nothing given up on is stored later: until `work` marks its `COMMIT` as sent, the
    /// transaction is open on the server, and closing the connection ends it there (the server
    /// reads the close after whatever it had not yet read, with no `COMMIT` among it, and rolls
    /// back). Once the `COMMIT` is on its way its answer alone says what happened, so the wait
    /// goes on for it: answering "not stored" then could be false.
    /// Without a `wait`, `work` runs as it is.
    func withinDeadline<R: Sendable>(_ conn: PostgresConnection, _ wait: Duration?,
                                     _ work: @escaping @Sendable (_ commitSent: NIOLockedValueBox<Bool>) async throws -> R) async throws -> R {
        let commitSent = NIOLockedValueBox(false)
        guard let wait else { return try await work(commitSent) }
        let location = location
        return try await withThrowingTaskGroup(of: Deadline<R>.self) { group in
            group.addTask { .done(try await work(commitSent)) }
            group.addTask {
                try await Task.sleep(for: wait)
                return .passed
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                switch next {
                case .done(let value): return value
                case .passed where commitSent.withLockedValue({ $0 }): continue
                case .passed:
                    // The work's statement fails when its connection closes, and the work ends.
                    try? await conn.close()
                    throw StoreUnavailable("no answer from '\(location)' within \(wait); nothing of the request was stored")
                }
            }
            throw CancellationError()
        }
    }
}

/// What came first in ``PostgresStore/withinDeadline(_:_:_:)``: the work's value, or the deadline.
enum Deadline<R: Sendable>: Sendable {
    case done(R)
    case passed
}
