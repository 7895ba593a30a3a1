import FetchAPI
import FetchBench
import FetchCore
import Foundation
import Testing

/// The command line end to end, through the built binary.
struct CommandTests {
    static let sample = Fetchsched.root.appendingPathComponent("data/sample.csv").path
    static let scenario = Fetchsched.root.appendingPathComponent("data/scenarios/default.json").path

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func benchPrintsOneObjectPerPolicyWithTheMetricsAtTheTop() async throws {
        let r = try await Fetchsched.run(["bench", Self.sample, "--scenario", Self.scenario,
                                    "--policies", "none,fixed:15m,fixed:60m,oracle", "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        let rows = try #require(try json(r.out) as? [[String: Any]])
        #expect(rows.map { $0["policy"] as? String } == ["none", "fixed:15m", "fixed:60m", "oracle"])
        let keys = ["opens", "freshOpens", "freshRate", "rescuedOpens", "staleMinutes", "fetches", "results",
                    "energyJoules", "cellularBytes", "wifiBytes", "budgets", "violations", "perUser", "perDay"]
        for row in rows {
            for k in keys { #expect(row[k] != nil, "missing \(k)") }
            let violations = try #require(row["violations"] as? [String: Int])
            #expect(violations.count == 5 && violations.values.allSatisfy { $0 == 0 })
        }
        #expect(rows[0]["fetches"] as? Int == 0 && rows[0]["rescuedOpens"] as? Int == 0)
        let rates = rows.map { $0["freshRate"] as! Double }
        #expect(rates[3] == rates.max()!)
    }

    @Test func benchFrontierSweepsEachFamilyInOnePassAndReadsItAtTheOraclesEnergy() async throws {
        let r = try await Fetchsched.run(["bench", Self.sample, "--policies", "none,ios,adaptive", "--frontier", "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        let top = try #require(try json(r.out) as? [String: Any])
        let policies = try #require(top["policies"] as? [[String: Any]]).compactMap { $0["policy"] as? String }
        let sweeps = try Frontier.sweptPolicies(for: .default, families: nil)
        #expect(policies == ["none", "ios", "adaptive"] + sweeps + ["oracle", "oracle:opens"])
        let frontiers = try #require(top["frontiers"] as? [[String: Any]])
        #expect(frontiers.compactMap { $0["family"] as? String }
            == ["adaptive", "counts", "fixed", "appm", "ebc", "android-prefetch", "oracle:hindsight"])
        for f in frontiers {
            let points = try #require(f["points"] as? [[String: Any]])
            let energies = points.map { $0["energyJoules"] as! Double }
            #expect(energies == energies.sorted())
            let oracle = try #require(f["oracle"] as? [String: Any])
            // Read on the curve: never above its best point nor the oracle.
            let at = try #require(f["rescuedAtOracleEnergy"] as? Double)
            let best = try #require((f["best"] as? [String: Any])?["rescuedOpens"] as? Int)
            #expect(at >= 0 && at <= Double(best) && at <= Double(oracle["rescuedOpens"] as! Int))
            let compared = try #require(f["atEnergyOf"] as? [[String: Any]]).compactMap { $0["policy"] as? String }
            // Every point of the counting baseline and of the published peers too: what each family rescues at its energy.
            let baselines = Frontier.sweeps(for: .default).filter { ["counts", "appm", "ebc"].contains($0.family) }.flatMap(\.policies)
            #expect(compared == ["none", "ios"] + baselines + ["oracle", "oracle:opens"])
        }
        let table = try await Fetchsched.run(["bench", Self.sample, "--policies", "none,ios,adaptive", "--frontier", "--format", "markdown"])
        #expect(table.out.contains("| family | points | oracle J | rescued at oracle J |"))
        #expect(table.out.contains("| policy | stale opens | after a screen_on | after another app's open | tick only |"))
        // And per user, each family at each baseline point of the same user, the worst user named.
        #expect(table.out.contains("| user | days | adaptive ÷ counts | adaptive ÷ appm |"))
        #expect(table.out.contains("Worst user: adaptive ÷ counts "))
    }

    @Test func benchSweepsOnlyTheFamiliesNamedWithTheOracles() async throws {
        let r = try await Fetchsched.run(["bench", Self.sample, "--policies", "none", "--frontier", "--sweep", "fixed,adaptive", "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        let top = try #require(try json(r.out) as? [String: Any])
        let policies = try #require(top["policies"] as? [[String: Any]]).compactMap { $0["policy"] as? String }
        // In the order of the full sweep, whatever the order named.
        let sweeps = Frontier.sweeps(for: .default).filter { ["adaptive", "fixed"].contains($0.family) }.flatMap(\.policies)
        #expect(sweeps.count > 10 && policies == ["none"] + sweeps + ["oracle", "oracle:opens"])
        let frontiers = try #require(top["frontiers"] as? [[String: Any]])
        #expect(frontiers.compactMap { $0["family"] as? String } == ["adaptive", "fixed"])
        // Each swept policy's row is the full frontier's.
        let full = try await Fetchsched.run(["bench", Self.sample, "--policies", "none", "--frontier", "--format", "csv"])
        let swept = try await Fetchsched.run(["bench", Self.sample, "--policies", "none", "--frontier", "--sweep", "adaptive", "--format", "csv"])
        // CSV lines end in CRLF, one Character.
        let rows = swept.out.split(whereSeparator: \.isNewline), fullRows = Set(full.out.split(whereSeparator: \.isNewline))
        #expect(rows.count == 1 + 1 + ValueRuleFamilies.shares.count + 2 && rows.allSatisfy { fullRows.contains($0) })
    }

    @Test(arguments: [
        (["--sweep", "adaptive"], "give --frontier too"),
        (["--frontier", "--sweep", "adaptive,bogus"],
         "--sweep: 'bogus' is not a family (adaptive, counts, fixed, appm, ebc, android-prefetch, ev-appm, ev-habits, ev-learned, "
            + "ev-mix, ev-mix2, adaptive-v1, oracle:hindsight)"),
        (["--frontier", "--sweep", ""], "--sweep: '' is not a family"),
        (["--frontier", "--sweep", "adaptive,,fixed"], "--sweep: '' is not a family"),
        (["--frontier", "--sweep", "Adaptive"], "--sweep: 'Adaptive' is not a family"),
    ])
    func aSweepOfNoKnownFamilyOrWithoutAFrontierIsRefused(args: [String], message: String) async throws {
        let r = try await Fetchsched.run(["bench", Self.sample, "--policies", "none"] + args)
        #expect(r.status != 0 && r.out.isEmpty && r.err.contains(message), "\(r.err)")
    }

    @Test func replayJSONIsOneObjectAndTheSameBytesEveryRun() async throws {
        let args = ["replay", Self.sample, "--policy", "oracle", "--format", "json", "--seed", "7"]
        let a = try await Fetchsched.run(args), b = try await Fetchsched.run(args)
        #expect(a.status == 0)
        #expect(try json(a.out) is [String: Any])
        #expect(a.out == b.out)
    }

    @Test func aBadRowExitsNonZeroNamingFileAndLine() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/bad.csv"
        try "timestamp,user,app,event,value\n2025-01-06T07:00:00Z,u,a,open,\n2025-01-06T07:00:00,u,a,open,\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["replay", path])
        #expect(r.status != 0)
        #expect(r.err.contains("\(path):3: timestamp '2025-01-06T07:00:00' has no UTC offset"))
        let skipped = try await Fetchsched.run(["replay", path, "--skip-invalid", "--format", "json"])
        #expect(skipped.status == 0)
        #expect(skipped.err.contains("skipped invalid rows: badTimestamp 1"))
    }

    @Test func aBadScenarioNamesTheField() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/s.json"
        try #"{"apps": {"default": {"interval": "hourly"}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["replay", Self.sample, "--scenario", path])
        #expect(r.status != 0)
        #expect(r.err.contains("apps.default.interval"))
    }

    @Test func theTraceHasOneRowPerFetchAndPerRefusal() async throws {
        let dir = Fetchsched.temp()
        let trace = dir + "/trace.csv"
        let r = try await Fetchsched.run(["replay", Self.sample, "--policy", "fixed:15m", "--trace", trace, "--format", "json"])
        #expect(r.status == 0)
        let report = try #require(try json(r.out) as? [String: Any])
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "user,app,start,durationSeconds,result,network,energyJoules,bytes,refusedBy")
        let refused = (report["refused"] as! [String: Int]).values.reduce(0, +)
        #expect(lines.count - 1 == (report["fetches"] as! Int) + refused)
        #expect(lines.contains { $0.hasSuffix(",budget-energy") })
    }

    @Test func theTraceShowsEachPushAndItsFate() async throws {
        let dir = Fetchsched.temp()
        let log = dir + "/pushes.csv", trace = dir + "/trace.csv"
        let gen = try await Fetchsched.run(["generate", "--users", "3", "--days", "3", "--seed", "2", "--pushes", "--out", log])
        #expect(gen.status == 0)
        let r = try await Fetchsched.run(["replay", log, "--policy", "none", "--trace", trace, "--format", "json"])
        #expect(r.status == 0)
        let pushes = try #require((try json(r.out) as? [String: Any])?["pushes"] as? [String: Any])
        let rows = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        func count(_ result: String) -> Int { rows.filter { $0.count > 4 && $0[4] == result }.count }
        #expect(count("push-silent") == pushes["deliveredNow"] as? Int)
        #expect(count("push-held") == pushes["held"] as? Int)
        #expect(count("push-late") == pushes["deliveredLate"] as? Int)
        #expect(count("push-alert") == pushes["alert"] as? Int)
        #expect((pushes["held"] as? Int ?? 0) > 0)
    }

    @Test func ingestThenReplayFromTheStoreMatchesTheFile() async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/events.sqlite"
        let first = try await Fetchsched.run(["ingest", Self.sample, "--db", db])
        #expect(first.status == 0 && first.out.contains("already stored"), "\(first.err)")
        let again = try await Fetchsched.run(["ingest", Self.sample, "--db", db])
        #expect(again.out.contains(": 0 new"))
        let fromDB = try await Fetchsched.run(["bench", "--db", db, "--format", "json"])
        let fromFile = try await Fetchsched.run(["bench", Self.sample, "--format", "json"])
        #expect(fromDB.status == 0 && fromDB.out == fromFile.out)
    }

    @Test func generateIsRepeatableAndTheSampleIsItsOutput() async throws {
        let dir = Fetchsched.temp()
        let out = dir + "/g.csv"
        let r = try await Fetchsched.run(["generate", "--users", "8", "--days", "10", "--seed", "1", "--out", out])
        #expect(r.status == 0)
        #expect(FileManager.default.contents(atPath: out) == FileManager.default.contents(atPath: Self.sample))
    }

    @Test func theBundledDefaultScenarioIsTheDocumentedDefaults() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.scenario))
        #expect(try Scenario.parse(json: Array(bytes)) == .default)
    }

    @Test func unknownPoliciesAndMissingInputsAreRefused() async throws {
        #expect(try await Fetchsched.run(["bench", Self.sample, "--policies", "none,sometimes"]).err.contains("unknown policy 'sometimes'"))
        #expect(try await Fetchsched.run(["replay"]).status != 0)
        let help = try await Fetchsched.run(["replay", "--help"]).out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for name in PolicySpec.known { #expect(help.contains(name + ":"), "\(name)") }
    }
}

/// `next`, through the binary.
struct NextCommandTests {
    @Test func nextPlansFromTheStoreAndExplains() async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/events.sqlite"
        let ingest = try await Fetchsched.run(["ingest", CommandTests.sample, "--db", db])
        #expect(ingest.out.contains("learned the usage models of 8 users"))
        // user-0006 (UTC-8) reads in the evening: at noon, the plan holds a fetch before 22:00.
        let args = ["next", "--db", db, "--user", "user-0006", "--app", "com.example.reader", "--at", "2025-01-12T20:00:00Z"]
        let table = try await Fetchsched.run(args)
        #expect(table.status == 0, "\(table.err)")
        #expect(table.out.contains("2025-01-12T22:00:00.000-08:00"))
        let json = try await Fetchsched.run(args + ["--format", "json"])
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect((plan["plan"] as? [Any])?.isEmpty == false)
        let explained = try await Fetchsched.run(args + ["--explain"])
        #expect(explained.out.contains("you open this app between"))
        #expect(explained.out.contains("- at your next unlock ("))
        #expect((plan["triggers"] as? [[String: Any]])?.contains { $0["kind"] as? String == "screen_on" } == true)
        let unknown = try await Fetchsched.run(["next", "--db", db, "--user", "user-0001", "--app", "com.example.nothing"])
        #expect(unknown.status == 0 && unknown.out.contains("has not opened"))
        let bad = try await Fetchsched.run(["next", "--db", db, "--user", "user-0001", "--app", "x", "--at", "tomorrow"])
        #expect(bad.status != 0 && bad.err.contains("--at"))
    }
}

/// `bench --report`: one self-contained HTML page.
struct ReportTests {
    @Test func theReportIsOneSelfContainedPageWithEveryChart() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/report.html"
        let args = ["bench", CommandTests.sample, "--policies", "none,fixed:60m,adaptive,oracle", "--report", path,
                    "--user", "user-0003", "--day", "2025-01-08"]
        let r = try await Fetchsched.run(args)
        #expect(r.status == 0, "\(r.err)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 4)  // scatter, fresh, daily spend, timeline
        #expect(html.contains("A day of user-0003: 2025-01-08"))
        // Nothing from the network: the only URL is the SVG namespace.
        let urls = html.components(separatedBy: "http").count - 1
        #expect(urls == html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1)
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("@import"))
        // Same inputs, same bytes.
        let again = dir + "/again.html"
        _ = try await Fetchsched.run(args.dropLast(6) + ["--report", again, "--user", "user-0003", "--day", "2025-01-08"])
        #expect(try String(contentsOfFile: again, encoding: .utf8) == html)
    }

    @Test func theFrontierReportAddsItsChartAndTable() async throws {
        let path = Fetchsched.temp() + "/frontier.html"
        let r = try await Fetchsched.run(["bench", CommandTests.sample, "--policies", "none,ios", "--frontier", "--report", path])
        #expect(r.status == 0, "\(r.err)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.components(separatedBy: "<svg").count - 1 == 5)  // the four, and the frontiers
        #expect(html.contains("Frontiers: rescued opens at equal energy") && html.contains("<td>adaptive</td>"))
        // The day's timeline draws the policies named, not the points of the sweep (a lane each).
        #expect(html.contains(">none opens</text>") && html.contains(">ios opens</text>"))
        #expect(!html.contains(">adaptive@0.4 opens</text>") && !html.contains(">oracle opens</text>"))
    }

    @Test func aBadDayIsRefused() async throws {
        let r = try await Fetchsched.run(["bench", CommandTests.sample, "--report", Fetchsched.temp() + "/r.html", "--day", "2025-02-30"])
        #expect(r.status != 0 && r.err.contains("--day"))
    }
}

/// Threads and checks.
struct ScaleTests {
    @Test(arguments: [1, 3])
    func theNumberOfThreadsDoesNotChangeTheOutput(threads: Int) async throws {
        let base = try await Fetchsched.run(["bench", CommandTests.sample, "--policies", "none,fixed:15m,adaptive,oracle", "--format", "json", "--threads", "2"])
        let other = try await Fetchsched.run(["bench", CommandTests.sample, "--policies", "none,fixed:15m,adaptive,oracle", "--format", "json", "--threads", "\(threads)"])
        #expect(base.status == 0 && !base.out.isEmpty)
        #expect(other.out == base.out)
    }

    @Test func checkCountsEventsAndStopsAtABadRow() async throws {
        let ok = try await Fetchsched.run(["check", CommandTests.sample])
        #expect(ok.status == 0 && ok.out.hasPrefix("7403 events, 8 users"))
        let dir = Fetchsched.temp()
        try "timestamp,user,app,event,value\n1,u,a,open,\n2,u,a,opened,\n".write(toFile: dir + "/b.csv", atomically: true, encoding: .utf8)
        let bad = try await Fetchsched.run(["check", dir + "/b.csv"])
        #expect(bad.status != 0 && bad.err.contains("b.csv:3: unknown event 'opened'"))
    }
}
