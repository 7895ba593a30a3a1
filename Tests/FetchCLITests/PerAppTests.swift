import Foundation
import Testing

/// `bench --per app` and `replay --per app`: an app developer's view of a policy.
struct PerAppTests {
    static let args = ["bench", CommandTests.sample, "--policies", "ios,android,android-prefetch,adaptive,fixed:30m", "--seed", "3"]

    static func apps(_ args: [String]) async throws -> [[String: Any]] {
        let r = try await Fetchsched.run(args + ["--per", "app", "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        return try #require(object["apps"] as? [[String: Any]])
    }

    @Test func eachPolicysAppsAddUpToItsReport() async throws {
        let rows = try await Self.apps(Self.args)
        let totals = try await Fetchsched.run(Self.args + ["--format", "json"])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(totals.out.utf8)) as? [[String: Any]])
        #expect(reports.count == 5)
        for report in reports {
            let policy = try #require(report["policy"] as? String)
            let mine = rows.filter { $0["policy"] as? String == policy }
            #expect(mine.count == 13, "\(policy): one row per app of the sample")
            #expect(mine.reduce(0) { $0 + ($1["opens"] as! Int) } == report["opens"] as? Int)
            #expect(mine.reduce(0) { $0 + ($1["fetches"] as! Int) } == report["fetches"] as? Int)
            // Shares are rounded to 4 places: each row's count is within half a unit of the fourth place.
            let rescued = mine.reduce(0.0) { $0 + (($1["rescuedShare"] as? Double) ?? 0) * Double($1["opens"] as! Int) }
            let slack = mine.reduce(0.0) { $0 + 0.00005 * Double($1["opens"] as! Int) }
            #expect(abs(rescued - Double(report["rescuedOpens"] as! Int)) <= slack + 1e-9, "\(policy)")
        }
        let names = rows.map { "\($0["app"]!)" }
        #expect(names == names.sorted())
    }

    @Test func everyFormatShowsTheSameRows() async throws {
        let rows = try await Self.apps(Self.args)
        let csv = try await Fetchsched.run(Self.args + ["--per", "app", "--format", "csv"])
        let parsed = CSVOutputTests.parse(csv.out)
        let header = try #require(parsed.first)
        #expect(parsed.count == rows.count + 1)
        for (row, object) in zip(parsed.dropFirst(), rows) {
            let flat = CSVOutputTests.flatten(object)
            for (name, cell) in zip(header, row) {
                #expect(CSVOutputTests.same(cell, flat[name] ?? NSNull()), "\(name): '\(cell)' against \(String(describing: flat[name]))")
            }
        }
        for format in ["table", "markdown"] {
            let text = try await Fetchsched.run(Self.args + ["--per", "app", "--format", format])
            #expect(text.status == 0)
            let lines = text.out.split(separator: "\n").filter { !$0.hasPrefix("|---") }
            #expect(lines.count == rows.count + 1 && lines[0].contains("fetches/day p10") && lines[1].contains("com.example.bank"))
        }
    }

    @Test func theAppsAskedForAreTheirRowsAloneAndReplaySaysTheSame() async throws {
        let all = try await Self.apps(Self.args)
        let some = try await Self.apps(Self.args + ["--apps", "com.example.news,com.example.chat,no.such.app"])
        let wanted = all.filter { ["com.example.news", "com.example.chat"].contains($0["app"] as? String) }
        #expect(some.count == 10 && NSArray(array: some).isEqual(to: wanted))
        let replay = try await Self.apps(["replay", CommandTests.sample, "--policy", "adaptive", "--seed", "3", "--threads", "2"])
        #expect(NSArray(array: replay).isEqual(to: all.filter { $0["policy"] as? String == "adaptive" }))
    }

    @Test func aStoreGivesTheRowsItsLogGives() async throws {
        let db = Fetchsched.temp() + "/s.sqlite"
        #expect(try await Fetchsched.run(["ingest", CommandTests.sample, "--db", db]).status == 0)
        let args = ["bench", "--db", db, "--policies", "ios,android,android-prefetch,adaptive,fixed:30m", "--seed", "3"]
        let fromStore = try await Self.apps(args)
        #expect(NSArray(array: fromStore).isEqual(to: try await Self.apps(Self.args)))
    }

    @Test func theHTMLReportHasThePerAppSection() async throws {
        let path = Fetchsched.temp() + "/r.html"
        let r = try await Fetchsched.run(Self.args + ["--per", "app", "--report", path, "--apps", "com.example.news"])
        #expect(r.status == 0, "\(r.err)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.contains("<h2>Per app</h2>") && html.contains("<td>com.example.news</td><td>android-prefetch</td>"))
        let plain = Fetchsched.temp() + "/p.html"
        #expect(try await Fetchsched.run(Self.args + ["--report", plain]).status == 0)
        #expect(try !String(contentsOfFile: plain, encoding: .utf8).contains("Per app"))
    }

    @Test(arguments: [
        (["--per", "app", "--shard", "0/2"], "not with --shard"),
        (["--per", "app", "--by-user"], "not with --by-user"),
        (["--apps", "com.example.news"], "give --per app too"),
        (["--per", "app", "--apps", "a,,b"], "has an empty name"),
        (["--per", "user"], "--per user needs --format csv"),
    ])
    func aPerAppRunThatCannotBeIsRefused(extra: [String], says: String) async throws {
        let r = try await Fetchsched.run(Self.args + extra)
        #expect(r.status == 64 && r.err.contains(says), "\(r.status): \(r.err)")
    }

    @Test func mergeRefusesPerAppSinceAShardReportHasNoFetches() async throws {
        let r = try await Fetchsched.run(["merge", "/nonexistent/a.json", "--per", "app"])
        #expect(r.status == 64 && r.err.contains("--per app"), "\(r.err)")
    }
}
