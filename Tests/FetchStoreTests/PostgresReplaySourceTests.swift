import FetchBench
import FetchCore
import FetchPostgres
import FetchPostgresTesting
import FetchTesting
import Foundation
import Testing

/// A replay's sources over PostgreSQL (user by user, and in time order through a cursor) when
/// the database goes away in the middle of a read.
struct PostgresReplaySourceTests {
    /// The server goes away after the first event (a proxy in front of it ends every connection
    /// and refuses new ones): the read fails, naming the store, within the store's wait for a
    /// connection, whichever source reads. PostgresNIO leaves a query written to a closed
    /// connection unanswered, and its pool waits for a connection without end while the server
    /// is down. The read is bounded in the test; the time limit only ends a hang elsewhere (a
    /// set-up under the whole suite's load has taken more than a minute).
    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"),
          .timeLimit(.minutes(3)), arguments: [true, false])
    func aReplaySourceWhoseDatabaseGoesAwayFailsNamingTheStore(timeOrder: Bool) async throws {
        let db = try await TestDatabase.make()
        let cluster = try #require(URLComponents(string: db.url))
        let proxy = try await OutageProxy.start(to: try #require(cluster.host), port: cluster.port ?? 5432)
        let store = try await PostgresStore(url: proxy.route(db.url), connectionWait: .seconds(1))
        // More events than one read of the cursor takes, of several users.
        var log = try ArraySource(csv: SyntheticLog.csv(users: 5, days: 28, seed: 4))
        let stored = try await store.ingest(&log, learn: false)
        try #require(stored.inserted > 10_000)
        let outcome = await ConnectionCloseWatchTests.within(.seconds(30)) {
            try await store.withEventBatches(timeOrder: timeOrder) { source in
                var read = try await source.nextBatch()?.count ?? 0
                try await proxy.outage()
                while let batch = try await source.nextBatch() { read += batch.count }
                return read
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
}
