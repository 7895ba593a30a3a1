import FetchCore
import FetchPostgres
import FetchPostgresTesting
import FetchSQLite
import FetchStorage
import FetchTesting
import PostgresNIO
import Testing

/// PostgreSQL writes a group of batches in one call of a function in the database: the
/// outcomes, batch by batch, and what is stored are those of SQLite, which writes them one by
/// one; and a batch the database refuses fails alone.
struct GroupAtOnceTests {
    static func outcomeText(_ r: Result<AppendOutcome, any Error>) -> String {
        switch r {
        case .success(let o): "added \(o.added.map { "\($0.user)/\($0.id)" }) users \(o.steps.keys.sorted())"
        case .failure: "failed"
        }
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"),
          arguments: [1, 2, 3] as [UInt64])
    func groupsOfRandomBatchesGiveWhatBatchByBatchGives(seed: UInt64) async throws {
        let db = try await TestDatabase.make()
        let dir = TempDir()
        defer { dir.cleanup() }
        let pg = try await db.patientStore(), lite = try SQLiteStore(path: dir.path + "/s.sqlite")
        var rng = SplitMix64(seed: seed)
        var stamps: [String: Int64] = [:]  // each user's version as the steps tell it
        for _ in 0..<12 {
            // Ids repeated within a batch, across the group's batches and across groups; events alike but for their id.
            let group = (0..<rng.int(in: 1...5)).map { _ in  // a group of one batch too: it has no second try
                (0..<rng.int(in: 0...8)).map { _ in
                    ServiceStoreTests.event("e\(rng.int(in: 0...40))", user: "t/u\(rng.int(in: 0...3))",
                                            minute: Int64(rng.int(in: 0...30)), app: rng.chance(0.8) ? "app\(rng.int(in: 0...4))" : nil)
                }
            }
            let (fromPG, fromLite) = (try await pg.appendGroup(group), try await lite.appendGroup(group))
            #expect(fromPG.map(Self.outcomeText) == fromLite.map(Self.outcomeText))
            for outcome in fromPG.compactMap({ try? $0.get() }) {
                for (user, step) in outcome.steps.sorted(by: { $0.key < $1.key }) {
                    #expect(step.before == stamps[user, default: 0], "steps chain, batch after batch")
                    stamps[user] = step.after
                }
            }
        }
        for user in (0...3).map({ "t/u\($0)" }) {
            #expect(ServiceStoreTests.text(try await pg.history(user: user)) == ServiceStoreTests.text(try await lite.history(user: user)))
            if let stamp = stamps[user] { #expect(try await pg.version(user: user).version == stamp) }
        }
        await pg.close()
        try await db.drop()
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aBatchTheDatabaseRefusesFailsAloneAndTheRestOfItsGroupIsStored() async throws {
        let db = try await TestDatabase.make()
        let pg = try await db.patientStore()
        // PostgreSQL's text holds no NUL byte: the service's name rules keep it out, the store is called directly here.
        let group = [[ServiceStoreTests.event("a", minute: 1)], [ServiceStoreTests.event("b", minute: 2, app: "bad\u{0}app")],
                     [ServiceStoreTests.event("c", user: "acme/u2", minute: 3)]]
        let results = try await pg.appendGroup(group)
        #expect(results.map(Self.outcomeText) == ["added [\"acme/u1/a\"] users [\"acme/u1\"]", "failed",
                                                  "added [\"acme/u2/c\"] users [\"acme/u2\"]"])
        #expect(try await pg.history(user: "acme/u1").events.count == 1)
        #expect(try await pg.history(user: "acme/u2").events.count == 1)
        await pg.close()
        try await db.drop()
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aBatchAloneThatTheDatabaseRefusesFailsWithTheReasonAndLeavesNothing() async throws {
        let db = try await TestDatabase.make()
        let pg = try await db.patientStore()
        let bad = [ServiceStoreTests.event("a", minute: 1), ServiceStoreTests.event("b", minute: 2, app: "bad\u{0}app")]
        let results = try await pg.appendGroup([bad])
        guard case .failure(let error) = try #require(results.first) else {
            Issue.record("a refused batch was stored")
            return
        }
        #expect("\(error)".hasPrefix("the batch was not stored: "), "the database's reason is kept: \(error)")
        #expect(try await pg.history(user: "acme/u1").events.isEmpty, "nothing of the batch is stored")
        #expect(try await pg.version(user: "acme/u1").version == 0, "nor its version step")
        // The claimed ids went with it: the batch sent again without the bad event is stored whole.
        let again = try await pg.appendGroup([[bad[0]]])
        #expect(again.map(Self.outcomeText) == ["added [\"acme/u1/a\"] users [\"acme/u1\"]"])
        await pg.close()
        try await db.drop()
    }

    /// Another instance deletes an app while a group naming it waits for the app's row: the
    /// group does not store its events without their app; it is written again, the app added
    /// anew. The deletion is held open on a connection of the test's own until the group waits.
    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aGroupNamingAnAppDeletedWhileItWaitedIsWrittenAgainWithTheAppAddedAnew() async throws {
        let db = try await TestDatabase.make()
        let pg = try await db.patientStore()
        let url = try PostgresURL(db.url), log = Logger(label: "test")
        let client = PostgresClient(configuration: .init(host: url.host, port: url.port, username: url.user, password: url.password,
                                                         database: url.database, tls: .disable))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await client.withConnection { conn in
                try await conn.query("INSERT INTO apps (name) VALUES ('gone')", logger: log)
                try await conn.query("BEGIN", logger: log)
                try await conn.query("DELETE FROM apps WHERE name = 'gone'", logger: log)
                async let appended = pg.appendGroup([[ServiceStoreTests.event("a", minute: 1, app: "gone")]])
                var waiting = 0
                for _ in 0..<100_000 where waiting == 0 {  // each look a round trip: bounded, no sleep
                    for try await n in try await client.query("""
                        SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                        """, logger: log).decode(Int.self) {
                        waiting = n
                    }
                }
                #expect(waiting == 1, "the group waits for the app's row")
                try await conn.query("COMMIT", logger: log)
                let results = try await appended
                #expect(results.map(Self.outcomeText) == ["added [\"acme/u1/a\"] users [\"acme/u1\"]"])
            }
        }
        let history = try await pg.history(user: "acme/u1")
        #expect(history.events.count == 1)
        #expect(history.appNames.contains("gone"), "the event keeps its app: \(history.appNames)")
        await pg.close()
        try await db.drop()
    }
}
