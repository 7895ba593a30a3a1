import NIOConcurrencyHelpers
import PostgresNIO

/// Ends the wait for work on a pooled connection that closed under it.
///
/// PostgresNIO leaves a query written to a connection whose channel has already closed
/// unanswered (the write fails, with nothing waiting to hear it), and the pool may still hand
/// out a connection the server has just dropped, or the server may drop it between two of a
/// body's queries. Such a body would wait without end. So the body runs in a task of its own,
/// and the caller waits for either its result or, once the connection has closed and the body
/// has had `grace` to finish, the failure. The grace lets a body whose last answer came in
/// before the close (a `COMMIT`) return what it did rather than be called failed.
///
/// One close callback per connection, not per body: callbacks cannot be removed from a future,
/// and a connection serves many bodies. The watch keeps, per connection it has seen open, the
/// ending of the body running on it, if any; the callback takes it out and calls it.
final class ConnectionCloseWatch: Sendable {
    private struct Slot { var ending: (@Sendable () -> Void)? }
    private let slots = NIOLockedValueBox<[PostgresConnection.ID: Slot]>([:])

    /// How many connections the watch keeps a slot for: those it has seen and not yet seen close.
    var watched: Int { slots.withLockedValue { $0.count } }

    /// Runs `body` (on `conn`) and returns what it returns, or throws `failure()` when `conn`
    /// closes and `body` has not returned `grace` later; the body is then left to itself. The
    /// body is cancelled with the caller.
    func run<R: Sendable>(on conn: PostgresConnection, grace: Duration, failure: @escaping @Sendable () -> any Error,
                          _ body: @escaping @Sendable () async throws -> R) async throws -> R {
        // NIO's promise is the one-shot: the first outcome completes it, a later one is ignored.
        let outcome = conn.eventLoop.makePromise(of: R.self)
        let work = Task {
            do { outcome.succeed(try await body()) } catch { outcome.fail(error) }
        }
        let id = conn.id
        let ending: @Sendable () -> Void = {
            Task {
                try? await Task.sleep(for: grace)
                outcome.fail(failure())
            }
        }
        let first = slots.withLockedValue { slots in slots.updateValue(Slot(ending: ending), forKey: id) == nil }
        if first {
            // Called at once when the connection has already closed.
            conn.closeFuture.whenComplete { [slots] _ in slots.withLockedValue { $0.removeValue(forKey: id) }?.ending?() }
        }
        defer { slots.withLockedValue { slots in if slots[id] != nil { slots[id] = Slot() } } }
        return try await withTaskCancellationHandler {
            try await outcome.futureResult.get()
        } onCancel: {
            work.cancel()
        }
    }
}
