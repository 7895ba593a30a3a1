import FetchBench
import FetchCore
import FetchPostgresTesting
import FetchStorage
import FetchTesting
import Foundation
import Testing
@testable import FetchPostgres

/// An ingest into PostgreSQL when the database goes away in the middle of it.
@Suite(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"),
       .timeLimit(.minutes(3)))
struct PostgresIngestOutageTests {
    /// Hands on the events of `log`, and cuts the proxy off once `after` of them were read, or
    /// with `after` nil once every one was (the statements after the rows' copy then meet a
    /// connection closing under them).
    struct CutOff: UsageEventSource {
        var log: ArraySource
        let proxy: OutageProxy
        let after: Int?
        var read = 0
        var users: NameTable { log.users }
        var apps: NameTable { log.apps }

        mutating func next() throws -> UsageEvent? {
            read += 1
            let e = log.next()
            if read == after || (after == nil && e == nil) { proxy.outageNow() }
            return e
        }
    }

    /// The server goes away in the middle of the rows' `COPY` (a proxy in front of it ends every
    /// connection): the ingest fails, naming the store, rather than waiting without end on the
    /// `ROLLBACK` it would write to the closed connection; nothing of it is stored.
    @Test(arguments: [true, false], [true, false])
    func anIngestWhoseDatabaseGoesAwayFailsNamingTheStore(firstLoad: Bool, atTheEnd: Bool) async throws {
        let (store, proxy, db) = try await ConnectionCloseWatchTests.store(wait: .seconds(1))
        var kept = 0
        if !firstLoad {
            var earlier = try ArraySource(csv: SyntheticLog.csv(users: 2, days: 2, seed: 5))
            kept = try await store.ingest(&earlier, learn: false).inserted
        }
        let csv = SyntheticLog.csv(users: 5, days: 28, seed: 4)
        let outcome = await ConnectionCloseWatchTests.within(.seconds(30)) {
            var source = CutOff(log: try ArraySource(csv: csv), proxy: proxy, after: atTheEnd ? nil : 2_000)
            return try await store.ingest(&source, learn: false)
        }
        switch outcome {
        case nil: Issue.record("the ingest still waits 30 s after the server went away")
        case .success(let stats)?: Issue.record("stored \(stats.inserted) events with the server gone")
        case .failure(let error)?: #expect("\(error)".contains(store.location), "\(error)")
        }
        await store.close()
        #expect(try await Self.events(in: db) == kept)
        try await db.drop()
    }

    /// The server goes away between two of the ingest's statements, after each of its answers in
    /// turn (the connection closes after the answer reached the client, before the next statement
    /// is written): each time the ingest fails naming the store and stores nothing, or, cut after
    /// its last answer, has stored every event. None waits without end.
    @Test(arguments: [true, false])
    func anIngestWhoseServerGoesAwayBetweenTwoStatementsFailsNamingTheStore(firstLoad: Bool) async throws {
        let csv = SyntheticLog.csv(users: 3, days: 2, seed: 8)
        var answers = 1
        var failed = 0
        while answers < 200 {
            let (store, proxy, db) = try await ConnectionCloseWatchTests.store(wait: .milliseconds(300))
            var kept = 0
            if !firstLoad {
                var earlier = try ArraySource(csv: SyntheticLog.csv(users: 2, days: 2, seed: 5))
                kept = try await store.ingest(&earlier, learn: false).inserted
            }
            proxy.outage(afterAnswers: answers)
            let outcome = await ConnectionCloseWatchTests.within(.seconds(20)) {
                var source = try ArraySource(csv: csv)
                return try await store.ingest(&source, learn: false)
            }
            var stored = kept
            switch outcome {
            case nil: Issue.record("cut after answer \(answers): the ingest still waits 20 s after the server went away")
            case .success(let stats)?: stored += stats.inserted
            case .failure(let error)?:
                failed += 1
                #expect("\(error)".contains(store.location), "cut after answer \(answers): \(error)")
            }
            await store.close()
            #expect(try await Self.events(in: db) == stored, "cut after answer \(answers)")
            try await db.drop()
            guard case .failure? = outcome else { break }
            answers += 1
        }
        // Every statement of the ingest was met by a connection closed just before it.
        #expect(failed >= 10 && answers < 200, "\(failed) failed, \(answers) answers")
    }

    /// How many events `db` holds, read directly (not through the proxy).
    static func events(in db: TestDatabase) async throws -> Int {
        let direct = try await PostgresStore(url: db.url)
        let count = try await direct.connection { conn in
            var count = 0
            for try await n in try await conn.query("SELECT count(*)::int FROM events", logger: direct.logger).decode(Int.self) { count = n }
            return count
        }
        await direct.close()
        return count
    }
}
