import FetchBench
import FetchCore
import FetchPostgres
import FetchPostgresTesting
import FetchTesting
import Foundation
import Synchronization
import Testing

/// A replay's sources over PostgreSQL (user by user, and in time order through a cursor) when
/// the database goes away in the middle of a read.
struct PostgresReplaySourceTests {
    /// The server goes away after the first event (a proxy in front of it ends every connection
    /// and refuses new ones): the read fails, naming the store, within the store's wait for a
    /// connection, whichever source reads. PostgresNIO leaves a query written to a closed
    /// connection unanswered, and its pool waits for a connection without end while the server
    /// is down.
    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"),
          .timeLimit(.minutes(1)), arguments: [true, false])
    func aReplaySourceWhoseDatabaseGoesAwayFailsNamingTheStore(timeOrder: Bool) async throws {
        let db = try await TestDatabase.make()
        let cluster = try #require(URLComponents(string: db.url))
        let proxy = try await OutageProxy.start(to: try #require(cluster.host), port: cluster.port ?? 5432)
        let store = try await PostgresStore(url: proxy.route(db.url), connectionWait: .seconds(1))
        // More events than one read of the cursor takes, of several users.
        var log = try ArraySource(csv: SyntheticLog.csv(users: 5, days: 28, seed: 4))
        let stored = try await store.ingest(&log, learn: false)
        try #require(stored.inserted > 10_000)
        // Off the cooperative pool, as the command line reads.
        let outcome = await Self.onThread(within: .seconds(30)) {
            Result {
                try store.withEventSource(timeOrder: timeOrder) { source in
                    var read = try source.next() == nil ? 0 : 1
                    let gone = DispatchSemaphore(value: 0)
                    Task {
                        try? await proxy.outage()
                        gone.signal()
                    }
                    gone.wait()
                    while try source.next() != nil { read += 1 }
                    return read
                }
            }
        }
        switch outcome {
        case nil: Issue.record("the read still waits 30 s after the server went away")
        case .success(let read)?: Issue.record("read \(read) of \(stored.inserted) events with the server gone")
        case .failure(let error)?: #expect("\(error)".contains("store '\(store.location)'"), "\(error)")
        }
        await store.close()
        try await db.drop()
    }

    /// What `body` returns, run on a thread of its own; nil when it has not returned within
    /// `limit` (the thread is then left as it is: a wait without end is what is tested for).
    static func onThread<T: Sendable>(within limit: Duration, _ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (done: CheckedContinuation<T?, Never>) in
            let once = Mutex<CheckedContinuation<T?, Never>?>(done)
            let finish: @Sendable (T?) -> Void = { value in once.withLock { c in defer { c = nil }; return c }?.resume(returning: value) }
            Thread { finish(body()) }.start()
            Task {
                try? await Task.sleep(for: limit)
                finish(nil)
            }
        }
    }
}
