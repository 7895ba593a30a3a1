import FetchCore
import FetchPostgresTesting
import FetchStorage
import Foundation
import Testing
@testable import FetchPostgres

/// Issue 64: a database that stops answering (every process stopped, a network that drops
/// packets without a word) fails a write within the store's wait, and nothing given up on is
/// stored when the database answers again.
@Suite(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"),
       .timeLimit(.minutes(3)))
struct PostgresFrozenTests {
    static func batch(_ user: String, from: Int64) -> [IdentifiedEvent] {
        (0..<3).map { i in
            IdentifiedEvent(id: "\(user)-\(from + i)", user: user,
                            event: UsageEvent(time: Instant(millis: 1_736_150_400_000 + (from + i) * 60_000), user: 0, app: 0, kind: .open),
                            appName: "com.example.news")
        }
    }

    /// Waits, a bounded while, until no other session of `db` is in a transaction or a statement:
    /// what the proxy held has reached the server and been dealt with.
    static func settled(_ db: TestDatabase) async throws -> Bool {
        let direct = try await PostgresStore(url: db.url)
        defer { Task { await direct.close() } }
        for _ in 0..<200 {
            let busy = try await direct.connection { conn in
                var n = 0
                let rows = try await conn.query("""
                    SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                    AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')
                    """, logger: direct.logger)
                for try await c in rows.decode(Int.self) { n = c }
                return n
            }
            if busy == 0 { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test func aWriteToADatabaseThatStopsAnsweringFailsWithinItsWaitAndIsNeverStored() async throws {
        let (store, proxy, db) = try await ConnectionCloseWatchTests.store(wait: .seconds(1))
        _ = try await StoreRetry.triedAgain { try await store.appendGroup([Self.batch("ann", from: 0)]) }
        await proxy.freeze()
        let clock = ContinuousClock(), started = clock.now
        let outcome = await ConnectionCloseWatchTests.within(.seconds(20)) { try await store.appendGroup([Self.batch("bob", from: 100)]) }
        let took = clock.now - started
        await proxy.thaw()
        switch outcome {
        case nil: Issue.record("the write still waits 20 s after the database stopped answering")
        case .success?: Issue.record("the write was answered while the database did not answer")
        case .failure(let error)?: #expect(error is StoreUnavailable, "\(error)")
        }
        #expect(took < .seconds(4), "\(took)")
        #expect(try await Self.settled(db))
        // What the proxy held reached the server after the thaw, and the close after it: no
        // `COMMIT` among it, so the write given up on is not stored.
        #expect(try await PostgresIngestOutageTests.events(in: db) == 3)
        // The store serves again.
        _ = try await StoreRetry.triedAgain { try await store.appendGroup([Self.batch("cid", from: 200)]) }
        #expect(try await PostgresIngestOutageTests.events(in: db) == 6)
        await store.close()
        try await db.drop()
    }
}
