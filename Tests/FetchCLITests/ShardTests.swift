import FetchBench
import FetchCore
import Foundation
import Testing

/// `--shard i/n` and `merge`: shards of a run, merged, are the unsharded run's bytes.
struct ShardTests {
    /// A generated log with pushes and location wakes, and a scenario with transfers and tasks,
    /// so that every part of a tally (histograms, pushes, background paths) is exercised.
    static let log: String = {
        let dir = Fetchsched.temp()
        let r = try! Fetchsched.runBlocking(["generate", "--users", "12", "--days", "4", "--seed", "9", "--pushes", "--location"])
        let path = dir + "/log.csv"
        // Two malformed rows, for --skip-invalid.
        try! (r.out + "not,a,row\n2025-13-01T00:00:00Z,u,open,a\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()
    static let scenario = Fetchsched.root.appendingPathComponent("data/scenarios/updates.json").path

    func shards(_ args: [String], count: Int, dir: String) async throws -> [String] {
        var paths: [String] = []
        for i in 0..<count {
            let r = try await Fetchsched.run(args + ["--shard", "\(i)/\(count)", "--quiet"])
            #expect(r.status == 0, "\(r.err)")
            let path = "\(dir)/shard-\(i).json"
            try r.out.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        return paths
    }

    @Test(arguments: [1, 2, 3, 7])
    func benchShardsMergedAreTheUnshardedRunsBytesInEveryFormat(count: Int) async throws {
        let dir = Fetchsched.temp()
        let args = ["bench", Self.log, "--skip-invalid", "--scenario", Self.scenario, "--seed", "4",
                    "--policies", "none,fixed:15m,adaptive,adaptive+push,oracle"]
        // Reversed order: merge does not depend on the order of its arguments.
        let files = Array(try await shards(args, count: count, dir: dir).reversed())
        for format in [["table"], ["json"], ["markdown"], ["csv"], ["csv", "--per", "user"], ["csv", "--per", "day"]] {
            let whole = try await Fetchsched.run(args + ["--format"] + format + ["--quiet"])
            let merged = try await Fetchsched.run(["merge", "--format"] + format + files)
            #expect(whole.status == 0 && merged.status == 0, "\(merged.err)")
            #expect(merged.out == whole.out, "format \(format), \(count) shards")
        }
    }

    @Test func replayAndFrontierShardsMergeToTheUnshardedBytes() async throws {
        let dir = Fetchsched.temp()
        let replay = ["replay", Self.log, "--skip-invalid", "--policy", "adaptive"]
        let replayFiles = try await shards(replay, count: 3, dir: Fetchsched.temp())
        #expect(try await Fetchsched.run(["merge"] + replayFiles).out == Fetchsched.run(replay + ["--quiet"]).out)
        let bench = ["bench", Self.log, "--skip-invalid", "--policies", "none,ios", "--frontier"]
        let benchFiles = try await shards(bench, count: 2, dir: dir)
        let merged = try await Fetchsched.run(["merge", "--format", "json"] + benchFiles)
        let whole = try await Fetchsched.run(bench + ["--format", "json", "--quiet"])
        #expect(merged.out == whole.out)
    }

    @Test func shardsOfASweepMergeToItsBytesAndNotWithAnotherSweeps() async throws {
        let dir = Fetchsched.temp()
        let bench = ["bench", Self.log, "--skip-invalid", "--policies", "none", "--frontier", "--sweep", "counts"]
        let files = try await shards(bench, count: 2, dir: dir)
        let merged = try await Fetchsched.run(["merge", "--format", "markdown"] + files)
        let whole = try await Fetchsched.run(bench + ["--format", "markdown", "--quiet"])
        #expect(merged.status == 0 && merged.out == whole.out)
        let other = try await shards(bench.dropLast() + ["fixed"], count: 2, dir: Fetchsched.temp())
        let r = try await Fetchsched.run(["merge", files[0], other[1]])
        #expect(r.status != 0 && r.err.contains("its sweep differs"), "\(r.err)")
        // A sweep of every family by name is its own run, though it replays the same policies.
        let all = try await shards(bench.dropLast() + [Frontier.familyNames.joined(separator: ",")], count: 2, dir: Fetchsched.temp())
        let none = try await shards(Array(bench.dropLast(2)), count: 2, dir: Fetchsched.temp())
        let mixed = try await Fetchsched.run(["merge", all[0], none[1]])
        #expect(mixed.err.contains("its sweep differs"), "\(mixed.err)")
    }

    @Test func aStoreIsShardedLikeItsLog() async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/s.db"
        #expect(try await Fetchsched.run(["ingest", Self.log, "--skip-invalid", "--db", db]).status == 0)
        let args = ["bench", "--db", db, "--policies", "fixed:15m,adaptive"]
        let files = try await shards(args, count: 2, dir: dir)
        #expect(try await Fetchsched.run(["merge", "--format", "json"] + files).out == Fetchsched.run(args + ["--format", "json", "--quiet"]).out)
    }

    @Test func mergeRefusesShardsThatDoNotMakeOneRun() async throws {
        let a = try await shards(["replay", Self.log, "--skip-invalid", "--policy", "fixed:15m"], count: 3, dir: Fetchsched.temp())
        let b = try await shards(["replay", Self.log, "--skip-invalid", "--policy", "fixed:15m", "--seed", "2"], count: 3, dir: Fetchsched.temp())
        let c = try await shards(["replay", Self.log, "--skip-invalid", "--policy", "fixed:15m"], count: 2, dir: Fetchsched.temp())
        let cases: [([String], String)] = [
            ([a[0], a[1]], "missing shard 2/3"),
            ([a[0], a[1], a[1], a[2]], "are both shard 1/3"),
            ([a[0], a[1], b[2]], "its seed differs"),
            ([a[0], a[1], a[2], c[0]], "is of 3 shards"),
            ([], "Missing expected argument"),
        ]
        for (files, message) in cases {
            let r = try await Fetchsched.run(["merge"] + files)
            #expect(r.status != 0 && r.err.contains(message), "\(files): \(r.err)")
        }
    }

    @Test(arguments: [
        ("\"events\":", "\"events\":-3,\"x\":", "is not a whole count"),
        ("\"events\":", "\"events\":1e300,\"x\":", "is not a whole count"),
        ("\"events\":", "\"events\":2.5,\"x\":", "is not a whole count"),
        ("\"buckets\":[", "\"buckets\":[5000,1,", "is not one a histogram holds"),
        ("\"format\":\"fetchsched-shard\"", "\"format\":\"csv\"", "not a shard report"),
        ("\"version\":2", "\"version\":3", "version 3"),
        // Issue 34: a day that is no date, and totals that disagree with the rows they sum.
        ("\"date\":\"", "\"date\":\"2025-13-45\",\"x\":\"", "is not a date"),
        ("\"opens\":", "\"opens\":1000000,\"x\":", "is not the sum of"),
        ("\"shard\":\"0\\/1\"", "\"shard\":\"0\\/0\"", "is not i/n"),
        ("\"seed\":\"1\"", "\"seed\":\"x\"", "is not a seed"),
    ])
    func mergeNamesTheFileAndTheProblemOfATamperedReport(from: String, to: String, message: String) async throws {
        let dir = Fetchsched.temp()
        let file = try await shards(["bench", Self.log, "--skip-invalid", "--policies", "adaptive"], count: 1, dir: dir)[0]
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let from = from.replacingOccurrences(of: "\\/", with: "/"), to = to.replacingOccurrences(of: "\\/", with: "/")
        let found = text.contains(from)  // not in the expectation: a failure would print the whole report
        #expect(found, "\(from) not in the report")
        try text.replacingOccurrences(of: from, with: to).write(toFile: file, atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["merge", file])
        #expect(r.status != 0 && r.err.contains("shard-0.json") && r.err.contains(message), "\(r.err)")
    }

    @Test func shardsOfDifferentInputsAtTheSamePathAreRefused() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/log.csv"
        try FileManager.default.copyItem(atPath: Self.log, toPath: path)
        let args = ["replay", path, "--skip-invalid", "--policy", "fixed:15m"]
        let first = try await shards(args, count: 2, dir: Fetchsched.temp())
        // The same path, another log: one open is of another app.
        let text = try String(contentsOfFile: Self.log, encoding: .utf8)
        let opens = text.split(separator: "\n").filter { $0.contains(",open,") }.map(String.init)
        let app = { (line: String) in line.split(separator: ",")[2] }
        let line = try #require(opens.first)
        let other = try #require(opens.first { app($0) != app(line) })
        let changed = line.replacingOccurrences(of: ",\(app(line)),", with: ",\(app(other)),")
        try text.replacingOccurrences(of: line, with: changed).write(toFile: path, atomically: true, encoding: .utf8)
        let second = try await shards(args, count: 2, dir: Fetchsched.temp())
        let r = try await Fetchsched.run(["merge", first[0], second[1]])
        #expect(r.status != 0 && r.err.contains("its inputDigest differs"), "\(r.err)")
        #expect(try await Fetchsched.run(["merge", second[0], second[1]]).status == 0)
    }

    @Test func countsThatWouldOverflowWhenAddedAreRefusedBeforeAnyIsAdded() async throws {
        let files = try await shards(["replay", Self.log, "--skip-invalid", "--policy", "none"], count: 2, dir: Fetchsched.temp())
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            // 18 digits each: accepted alone, past 2^61 together.
            try text.replacingOccurrences(of: "\"events\":", with: "\"events\":999999999999999999,\"x\":999999999999999999,\"y\":").write(toFile: file, atomically: true, encoding: .utf8)
        }
        let r = try await Fetchsched.run(["merge"] + files)
        #expect(r.status != 0 && r.err.contains("add up past 2^61"), "\(r.err)")
    }

    @Test func aUserInAnotherShardsReportIsRefused() async throws {
        let dir = Fetchsched.temp()
        let files = try await shards(["replay", Self.log, "--skip-invalid", "--policy", "none"], count: 2, dir: dir)
        // Shard 0's report, claiming to be shard 1 too: its users hash to shard 0.
        let text = try String(contentsOfFile: files[0], encoding: .utf8)
        try text.replacingOccurrences(of: "\"shard\":\"0/2\"", with: "\"shard\":\"1/2\"").write(toFile: files[1], atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["merge", files[0], files[1]])
        #expect(r.status != 0 && r.err.contains("is not in shard 1/2"), "\(r.err)")
    }

    @Test func aShardRunRefusesOutputOptionsThatBelongToMerge() async throws {
        for args in [["replay", Self.log, "--format", "json"], ["bench", Self.log, "--report", "/tmp/x.html"], ["replay", Self.log, "--skip-invalid", "--shard", "3/3"]] {
            let r = try await Fetchsched.run(args + (args.contains("--shard") ? [] : ["--shard", "0/2"]))
            #expect(r.status != 0 && r.out.isEmpty, "\(args)")
        }
    }

    /// `--by-user` replays the users one at a time from a copy split by user on disk: the same
    /// bytes as time order, in every format, with any threads, from a log or a store, and as
    /// shard reports (which are also the same bytes from one run to the next).
    @Test(arguments: [1, 2])
    func replayingUserByUserGivesTheBytesOfTimeOrder(threads: Int) async throws {
        let dir = Fetchsched.temp()
        let args = ["bench", Self.log, "--skip-invalid", "--scenario", Self.scenario, "--seed", "4",
                    "--policies", "none,fixed:15m,adaptive,adaptive+push,oracle,oracle:hindsight", "--quiet"]
        for format in [["json"], ["markdown"], ["csv", "--per", "user"], ["csv", "--per", "day"]] {
            let whole = try await Fetchsched.run(args + ["--format"] + format)
            let byUser = try await Fetchsched.run(args + ["--format"] + format + ["--by-user", "--threads", "\(threads)"])
            #expect(whole.status == 0 && byUser.status == 0, "\(byUser.err)")
            #expect(byUser.out == whole.out, "format \(format)")
        }
        let shard = try await Fetchsched.run(args + ["--shard", "1/3"])
        #expect(try await Fetchsched.run(args + ["--shard", "1/3"]).out == shard.out)
        #expect(try await Fetchsched.run(args + ["--shard", "1/3", "--by-user", "--threads", "\(threads)"]).out == shard.out)

        let db = dir + "/s.db"
        #expect(try await Fetchsched.run(["ingest", Self.log, "--skip-invalid", "--db", db]).status == 0)
        let store = ["replay", "--db", db, "--policy", "adaptive", "--format", "json", "--quiet"]
        #expect(try await Fetchsched.run(store + ["--by-user"]).out == Fetchsched.run(store).out)
    }

    @Test func byUserRefusesATraceAndAReportAndNamesATemporaryDirectoryItCannotUse() async throws {
        let dir = Fetchsched.temp()
        let traced = [["replay", Self.log, "--skip-invalid", "--trace", dir + "/t.csv"],
                      ["bench", Self.log, "--skip-invalid", "--report", dir + "/r.html"]]
        for args in traced {
            let r = try await Fetchsched.run(args + ["--by-user", "--quiet"])
            #expect(r.status != 0 && r.err.contains("--by-user") && r.out.isEmpty, "\(args): \(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/t.csv") && !FileManager.default.fileExists(atPath: dir + "/r.html"))
        let r = try await Fetchsched.run(["bench", Self.log, "--skip-invalid", "--by-user", "--quiet"], environment: ["TMPDIR": dir + "/missing"])
        #expect(r.status != 0 && r.err.contains("--by-user: cannot create a temporary file in \(dir)/missing"), "\(r.err)")
        // Nothing is left in the directory it used.
        let used = Fetchsched.temp()
        #expect(try await Fetchsched.run(["bench", Self.log, "--skip-invalid", "--by-user", "--quiet"], environment: ["TMPDIR": used]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: used).isEmpty)
    }
}
