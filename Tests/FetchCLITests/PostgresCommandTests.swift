import FetchPostgresTesting
import Foundation
import Testing

/// `--db postgres://…` on every command that takes a store: the same answers as SQLite.
struct PostgresCommandTests {
    static let sample = CommandTests.sample

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func ingestReplayBenchAndNextOnPostgresGiveWhatSQLiteGives() async throws {
        let db = try await TestDatabase.make()
        let dir = Fetchsched.temp()
        let lite = dir + "/s.sqlite"
        for store in [db.url, lite] {
            let r = try Fetchsched.run(["ingest", Self.sample, "--db", store])
            #expect(r.status == 0, "\(r.err)")
            #expect(r.out.contains("learned the usage models of"), "\(r.out)")
            let again = try Fetchsched.run(["ingest", Self.sample, "--db", store])
            #expect(again.out.contains(": 0 new"), "ingesting the same log again adds nothing: \(again.out)")
        }
        let fromFile = try Fetchsched.run(["bench", Self.sample, "--policies", "fixed:15m,adaptive,oracle", "--format", "json", "--quiet"])
        let fromPostgres = try Fetchsched.run(["bench", "--db", db.url, "--policies", "fixed:15m,adaptive,oracle", "--format", "json", "--quiet"])
        #expect(fromPostgres.status == 0, "\(fromPostgres.err)")
        #expect(fromPostgres.out == fromFile.out)
        let replay = try Fetchsched.run(["replay", "--db", db.url, "--policy", "adaptive", "--format", "json", "--quiet"])
        #expect(replay.out == (try Fetchsched.run(["replay", "--db", lite, "--policy", "adaptive", "--format", "json", "--quiet"])).out)
        for (app, at) in [("com.example.news", nil), ("com.example.chat", "2025-01-08T06:00:00Z")] {
            let args = ["--user", "user-0001", "--app", app, "--format", "json"] + (at.map { ["--at", $0] } ?? [])
            let pg = try Fetchsched.run(["next", "--db", db.url] + args)
            #expect(pg.status == 0, "\(pg.err)")
            #expect(pg.out == (try Fetchsched.run(["next", "--db", lite] + args)).out)
        }
        try await db.drop()
    }

    @Test(arguments: [
        ("postgres://", "is not a URL"),
        ("postgres://127.0.0.1:5432/db", "names no user"),
        ("postgres://u@127.0.0.1:99999/db", "the port must be 1 to 65535"),
        ("postgres://u@127.0.0.1/db?sslmode=maybe", "sslmode"),
        ("postgres://u:secret@127.0.0.1:1/db", "cannot open the store 'postgres://u:***@127.0.0.1:1/db'"),
    ])
    func aBadOrUnreachableURLIsAClearErrorThatHidesThePassword(url: String, says: String) throws {
        let r = try Fetchsched.run(["next", "--db", url, "--user", "u", "--app", "a"])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.contains(says), "\(r.err)")
        #expect(!r.err.contains("secret"))
    }
}
