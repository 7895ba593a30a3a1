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
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// Written by the task before it signals, read by the caller after it waits.
    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
}
