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
            let r = try await Fetchsched.run(["ingest", Self.sample, "--db", store])
            #expect(r.status == 0, "\(r.err)")
            #expect(r.out.contains("learned the usage models of"), "\(r.out)")
            let again = try await Fetchsched.run(["ingest", Self.sample, "--db", store])
            #expect(again.out.contains(": 0 new"), "ingesting the same log again adds nothing: \(again.out)")
        }
        let benchArgs = ["--policies", "fixed:15m,adaptive,oracle", "--format", "json", "--quiet"]
        let fromFile = try await Fetchsched.run(["bench", Self.sample] + benchArgs)
        let fromPostgres = try await Fetchsched.run(["bench", "--db", db.url] + benchArgs)
        #expect(fromPostgres.status == 0, "\(fromPostgres.err)")
        #expect(fromPostgres.out == fromFile.out)
        let replay = try await Fetchsched.run(["replay", "--db", db.url, "--policy", "adaptive", "--format", "json", "--quiet"])
        #expect(replay.out == (try await Fetchsched.run(["replay", "--db", lite, "--policy", "adaptive", "--format", "json", "--quiet"])).out)
        for (app, at) in [("com.example.news", nil), ("com.example.chat", "2025-01-08T06:00:00Z")] {
            let args = ["--user", "user-0001", "--app", app, "--format", "json"] + (at.map { ["--at", $0] } ?? [])
            let pg = try await Fetchsched.run(["next", "--db", db.url] + args)
            #expect(pg.status == 0, "\(pg.err)")
            #expect(pg.out == (try await Fetchsched.run(["next", "--db", lite] + args)).out)
        }
        try await db.drop()
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aConnectionRefusedByTheServerSaysWhy() async throws {
        let db = try await TestDatabase.make()
        let missing = db.url.replacingOccurrences(of: "/t_", with: "/missing_t_")
        for (url, says) in [(missing, "does not exist"), (db.url + "?sslmode=require", "does not offer TLS")] {
            let r = try await Fetchsched.run(["next", "--db", url, "--user", "u", "--app", "a"], limit: 60)
            #expect(r.status == 1 && r.err.contains(says), "\(r.err)")
        }
        try await db.drop()
    }

    /// A replay of a PostgreSQL store awaits its reads on the cooperative pool; with the pool cut
    /// to one thread (which the replay runs on), each read must still come: user by user, on
    /// worker threads or not, by user through files, and in time order for a trace.
    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aReplayOfPostgresFinishesWithAOneThreadCooperativePool() async throws {
        let db = try await TestDatabase.make()
        #expect(try await Fetchsched.run(["ingest", Self.sample, "--db", db.url, "--no-learn"]).status == 0)
        // One processor as libdispatch sees it (scripts/one-cpu.c): a pool of one thread.
        let shim = Fetchsched.temp() + "/one-cpu.so"
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-shared", "-fPIC", "-o", shim, Fetchsched.root.appendingPathComponent("scripts/one-cpu.c").path, "-ldl"]
        try cc.run()
        cc.waitUntilExit()
        try #require(cc.terminationStatus == 0, "cc could not build the one-processor shim")
        let oneThread = ["LD_PRELOAD": shim]
        let trace = Fetchsched.temp() + "/one-thread-trace.csv"
        for args in [["replay", "--db", db.url, "--policy", "fixed:60m", "--quiet"], ["bench", "--db", db.url, "--policies", "none,ios", "--quiet"],
                     ["bench", "--db", db.url, "--policies", "none,ios", "--threads", "2", "--quiet"],
                     ["bench", "--db", db.url, "--policies", "none,ios", "--by-user", "--quiet"],
                     ["replay", "--db", db.url, "--policy", "fixed:60m", "--trace", trace, "--quiet"]] {
            let r = try await Fetchsched.run(args, limit: 120, environment: oneThread)
            #expect(r.status == 0, "\(args[0]): \(r.err)")
        }
        try await db.drop()
    }

    /// A trace and an HTML report follow the events in time order across users: read so from
    /// PostgreSQL, they are the SQLite store's, on a log whose users sort otherwise by name than
    /// the log first names them (and in two cases), with a twin whose every event ties another's.
    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aTraceAndAReportOfPostgresAreTheSQLiteStoresInTimeOrder() async throws {
        let db = try await TestDatabase.make()
        let dir = Fetchsched.temp()
        let rename = ["user-0007": "zed", "user-0001": "Amy", "user-0002": "amy", "user-0003": "Bob"]
        var lines: [String] = []
        for line in try String(contentsOfFile: Self.sample, encoding: .utf8).split(separator: "\n").map(String.init) {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 1, fields[0] != "timestamp" else { lines.append(line); continue }
            let user = fields[1]
            fields[1] = rename[user] ?? user
            lines.append(fields.joined(separator: ","))
            if user == "user-0003" { fields[1] = "bob"; lines.append(fields.joined(separator: ",")) }
        }
        let log = dir + "/tied.csv", lite = dir + "/s.sqlite"
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        for store in [db.url, lite] {
            let r = try await Fetchsched.run(["ingest", log, "--db", store, "--no-learn"])
            #expect(r.status == 0, "\(r.err)")
        }
        func outputs(_ store: String) async throws -> (trace: String, report: String) {
            let trace = dir + "/trace-\(store == lite ? "lite" : "pg").csv", report = dir + "/report-\(store == lite ? "lite" : "pg").html"
            let replay = try await Fetchsched.run(["replay", "--db", store, "--policy", "fixed:15m", "--trace", trace, "--quiet"])
            #expect(replay.status == 0, "\(replay.err)")
            let bench = try await Fetchsched.run(["bench", "--db", store, "--policies", "none,adaptive", "--report", report, "--quiet"])
            #expect(bench.status == 0, "\(bench.err)")
            // The report names its source (the store) in its note; the rest must be the same.
            let html = try String(contentsOfFile: report, encoding: .utf8)
            let unnamed = html.replacing(#/<p class="note">[^·<]*· /#, with: "<p class=\"note\">", maxReplacements: 1)
            #expect(unnamed != html, "the report's note names its source")
            return (try String(contentsOfFile: trace, encoding: .utf8), unnamed)
        }
        let (pg, sqlite) = (try await outputs(db.url), try await outputs(lite))
        let traced = Set(sqlite.trace.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] })
        #expect(traced.isSuperset(of: ["zed", "Amy", "amy", "Bob", "bob"]), "\(traced)")
        #expect(pg.trace == sqlite.trace)
        #expect(pg.report == sqlite.report)
        try await db.drop()
    }

    @Test(arguments: [
        ("postgres://", "is not a URL"),
        ("postgres://127.0.0.1:5432/db", "names no user"),
        ("postgres://u@127.0.0.1:99999/db", "the port must be 1 to 65535"),
        ("postgres://u@127.0.0.1/db?sslmode=maybe", "sslmode"),
        ("postgres://u:secret@127.0.0.1:1/db", "cannot open the store 'postgres://u:***@127.0.0.1:1/db'"),
        // Issue 34: a password that does not parse is not printed either.
        ("postgres://u:se#cret@127.0.0.1/db", "percent-encoded"),
        ("postgres://u:se/cret@127.0.0.1/db", "percent-encoded"),
        ("postgres://u:se?cret@127.0.0.1/db", "percent-encoded"),
        ("postgres://u:secret@127.0.0.1:abc/db", "is not a URL"),
    ])
    func aBadOrUnreachableURLIsAClearErrorThatHidesThePassword(url: String, says: String) async throws {
        let r = try await Fetchsched.run(["next", "--db", url, "--user", "u", "--app", "a"])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.contains(says), "\(r.err)")
        #expect(!r.err.contains("secret"))
    }
}
