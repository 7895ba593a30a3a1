import FetchStorage
import Foundation

/// Runs async work to completion from synchronous code: the replay engine pulls events through
/// a synchronous source, and the PostgreSQL client is async.
///
/// Call it only from a thread outside Swift's cooperative pool (the command line runs its
/// synchronous commands on a thread of their own): it blocks the caller until the work, run on
/// the pool, is done, which on a pool thread could wait for itself.
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        try run(body, abandoning: nil)
    }

    /// Runs `body` as ``run(_:)`` does, but gives up waiting for it, within ``pollInterval``, once
    /// `gone` says what it waits on is gone (it then throws what `gone` returned): PostgresNIO
    /// leaves a query written to a closed connection unanswered, so such a wait would not end.
    /// The abandoned work is left to finish or not; its result is dropped.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T, abandoning gone: (() -> (any Error)?)?) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            box.set(result)
            done.signal()
        }
        if let gone {
            while done.wait(timeout: .now() + pollInterval) == .timedOut {
                if let error = gone() { throw error }
            }
        } else {
            done.wait()
        }
        return try box.get()!.get()
    }

    /// How often a wait that may be abandoned looks whether it should be.
    static let pollInterval = DispatchTimeInterval.milliseconds(500)

    /// Written by the task before it signals, read by the caller after it waits (under a lock:
    /// a task whose wait was abandoned may still write it).
    private final class ResultBox<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<T, any Error>?
        func set(_ r: Result<T, any Error>) { lock.withLock { result = r } }
        func get() -> Result<T, any Error>? { lock.withLock { result } }
    }
}
