@testable import FetchCLI
import FetchSQLite
import Foundation
import Testing

/// Issue 64, outputs and names at the command line: a write that fails is never a success, an
/// output never replaces an input, a reader never makes a store, temporary names never collide
/// with a dead run's, and each refusal says what is wrong.
struct EdgeOutputTests {
    static let sample = CommandTests.sample

    /// Runs the binary through `sh`, its standard output sent where `redirect` says (`> /dev/full`,
    /// `>&-`), and waits at most `limit` seconds.
    static func run(_ args: [String], redirect: String, limit: Double = 120) async throws -> Fetchsched.Result {
        let quoted = ([Fetchsched.binary.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try await Fetchsched.shell("exec " + quoted.joined(separator: " ") + " " + redirect, limit: limit)
    }

    static let writers: [[String]] = [
        ["bench", sample, "--policies", "none,fixed:60m"],
        ["replay", sample, "--policy", "fixed:60m", "--format", "json"],
        ["check", sample],
        ["predict", sample],
        ["generate", "--users", "20", "--days", "20"],
        ["bench", sample, "--policies", "none", "--shard", "0/2"],
        ["replay", sample, "--policy", "none", "--shard", "1/2"],
    ]

    @Test(arguments: writers)
    func aCommandWhoseOutputCannotBeWrittenFailsAndSaysSo(args: [String]) async throws {
        for redirect in ["> /dev/full", ">&-"] {
            let r = try await Self.run(args, redirect: redirect)
            #expect(r.status == 1, "\(args) \(redirect): \(r.status) \(r.err)")
            #expect(r.err.contains("cannot write standard output"), "\(args) \(redirect): \(r.err)")
        }
    }

    @Test func aMergeToAFullDiskFailsAndSaysSo() async throws {
        let dir = Fetchsched.temp()
        var shards: [String] = []
        for i in 0..<2 {
            let r = try await Fetchsched.run(["bench", Self.sample, "--policies", "none,fixed:60m", "--shard", "\(i)/2"])
            #expect(r.status == 0, "\(r.err)")
            let path = dir + "/s\(i).json"
            try r.out.write(toFile: path, atomically: true, encoding: .utf8)
            shards.append(path)
        }
        let r = try await Self.run(["merge"] + shards + ["--format", "json"], redirect: "> /dev/full")
        #expect(r.status == 1 && r.err.contains("No space left on device"), "\(r.err)")
    }

    /// Each output of a command pointed at one of its inputs, by the same path, by another path
    /// to it, and by a hard link: refused before anything is read, the input left as it was.
    @Test(arguments: [
        (["replay", "LOG", "--policy", "none", "--trace"], "log.csv"),
        (["bench", "LOG", "--policies", "none", "--report"], "log.csv"),
        (["predict", "LOG", "--report"], "log.csv"),
        (["replay", "LOG", "--policy", "none", "--trace"], "./log.csv"),
        (["bench", "LOG", "--policies", "none", "--report"], "hard.csv"),
        (["import", "--from", "usagestats", "--user", "ann", "--utc-offset", "+00:00", "LOG", "--out"], "log.csv"),
        (["replay", "--db", "STORE", "--policy", "none", "--trace"], "store.sqlite"),
        (["ingest", "LOG", "--db"], "log.csv"),
    ])
    func anOutputThatIsAnInputIsRefusedAndTheInputKept(args: [String], output: String) async throws {
        let dir = Fetchsched.temp()
        let log = dir + "/log.csv", store = dir + "/store.sqlite"
        try FileManager.default.copyItem(atPath: Self.sample, toPath: log)
        #expect(link(log, dir + "/hard.csv") == 0)
        if args.contains("STORE") {
            let i = try await Fetchsched.run(["ingest", log, "--db", store])
            #expect(i.status == 0, "\(i.err)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: args.contains("STORE") ? store : log))
        let argv = args.map { $0 == "LOG" ? log : $0 == "STORE" ? store : $0 } + [dir + "/" + output]
        let r = try await Fetchsched.run(argv)
        #expect(r.status != 0, "\(argv)")
        #expect(r.err.contains("refusing to write over what the run reads"), "\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: args.contains("STORE") ? store : log)) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".partial-") }
        #expect(left.isEmpty, "\(left)")
    }

    /// A database's write-ahead log, rollback journal and shared-memory index are inputs too, by
    /// any path and whether they exist yet: an import may not write its CSV there (it would
    /// replace committed events, or be played back into the evidence as a journal).
    @Test(arguments: [("e.db-wal", true), ("e.db-journal", false), ("./e.db-shm", false), ("link/e.db-wal", true), ("e.db-wal", false)])
    func anOutputOverADatabasesCompanionIsRefused(output: String, walExists: Bool) async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/e.db"
        try FileManager.default.copyItem(atPath: WellbeingImportTests.fixture, toPath: db)
        if walExists { #expect(FileManager.default.createFile(atPath: db + "-wal", contents: Data())) }
        #expect(symlink(dir, dir + "/link") == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let r = try await Fetchsched.run(["import", "--from", "wellbeing", "--user", "sam", "--time-zone", "Europe/Berlin", db,
                                          "--out", dir + "/" + output])
        #expect(r.status != 0 && r.err.contains("refusing to write over what the run reads"), "\(r.err)")
        #expect(r.err.contains(output.hasSuffix("-wal") ? "write-ahead log" : output.hasSuffix("-journal") ? "rollback journal" : "shared-memory"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == before)
    }

    @Test(arguments: [["replay", "--policy", "none"], ["bench", "--policies", "none"], ["next", "--user", "u", "--app", "a"]])
    func aReaderGivenAStoreThatDoesNotExistFailsAndMakesNone(args: [String]) async throws {
        let dir = Fetchsched.temp()
        let r = try await Fetchsched.run(args + ["--db", dir + "/typo.sqlite"])
        #expect(r.status != 0 && r.err.contains("does not exist"), "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// A run killed before its rename leaves its temporary file; a later run that happens to have
    /// the same pid (pid 1 in a container, here a pid namespace of its own) is not stopped by it.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")))
    func aDeadRunsTemporaryFileDoesNotStopARerun() async throws {
        let dir = Fetchsched.temp()
        let out = dir + "/o.csv"
        for stale in ["1", "2", "XXXXXX"] {
            #expect(FileManager.default.createFile(atPath: out + ".partial-" + stale, contents: Data("stale".utf8)))
        }
        let binary = Fetchsched.binary.path
        let r = try await Fetchsched.shell("exec /usr/bin/unshare --pid --fork '\(binary)' generate --users 2 --days 2 --out '\(out)'")
        #expect(r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("timestamp,user,app,event,value\n"))
    }

    @Test(arguments: [
        (["bench", sample, "--policies", "appm:17"], "'17' is not a value of appm:<k>"),
        (["bench", sample, "--policies", "adaptive:0x1p-3"], "'0x1p-3' is not a value of adaptive:<x>"),
        (["bench", sample, "--policies", "counts:nan"], "'nan' is not a value of counts:<x>"),
        (["bench", sample, "--policies", "ebc:0"], "(more than 0, at most 1)"),
        (["bench", sample, "--policies", "sometimes"], "unknown policy 'sometimes'"),
        (["import", "--from", "usagestats", "--user", "a", "--utc-offset", "Z", "x.txt", "--out", "/tmp/never.csv"], "for UTC, give +00:00"),
    ])
    func aWrongValueIsNamedWithItsRange(args: [String], message: String) async throws {
        let r = try await Fetchsched.run(args)
        #expect(r.status != 0 && r.err.contains(message), "\(r.err)")
    }

    @Test func predictsHelpOffersOnlyWhatItPrints() async throws {
        let r = try await Fetchsched.run(["predict", "--help"])
        let lines = r.out.split(separator: "\n")
        let at = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--format") })
        let text = lines[at...].prefix(2).joined(separator: " ")
        #expect(text.contains("values: table") && text.contains("json") && !text.contains("csv"), "\(text)")
    }

    /// An empty TMPDIR is no directory: by-user replays go to /tmp, never to /.
    @Test func anEmptyTmpdirMeansTmp() async throws {
        let r = try await Fetchsched.run(["replay", Self.sample, "--policy", "none", "--by-user", "--quiet"], environment: ["TMPDIR": ""])
        #expect(r.status == 0, "\(r.err)")
        // The run above passes as root whatever the directory; the rule itself:
        #expect(TemporaryFile.directory(in: ["TMPDIR": ""]) == "/tmp/")
        #expect(TemporaryFile.directory(in: [:]) == "/tmp/")
        #expect(TemporaryFile.directory(in: ["TMPDIR": "/var/spill"]) == "/var/spill/")
    }

    @Test(arguments: [("{\"format\": \"fetchsched-shard\"", "not JSON"), ("{\"format\": \"other\"}", "its format is 'other'"),
                      ("[1, 2]", "no \"format\": \"fetchsched-shard\"")])
    func aFileThatIsNoShardReportSaysWhatItIs(text: String, message: String) async throws {
        let dir = Fetchsched.temp()
        try text.write(toFile: dir + "/a.json", atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["merge", dir + "/a.json"])
        #expect(r.status != 0 && r.err.contains(message), "\(r.err)")
    }

    /// The writer's claim is on the file: another name for it (a symbolic link, a hard link)
    /// meets the same claim.
    @Test(arguments: ["symbolic link", "hard link"])
    func aStoreHeldUnderOneNameIsHeldUnderEveryName(kind: String) async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/real.sqlite", other = dir + "/other.sqlite"
        let held = try SQLiteStore(path: db, writer: true)  // as a running service holds it
        #expect((kind == "hard link" ? link(db, other) : symlink(db, other)) == 0)
        let r = try await Fetchsched.run(["ingest", Self.sample, "--db", other])
        #expect(r.status == 1 && r.err.contains("is being written by another process"), "\(r.err)")
        #expect(try held.counts().events == 0)
    }

    /// A grandchild that leaves the policy's process group (`setsid`) is handed to the run when
    /// its parent ends, and ended with the run.
    @Test func aGrandchildThatLeftThePolicysGroupDoesNotOutliveTheRun() async throws {
        let dir = Fetchsched.temp()
        let child = dir + "/grandchild"
        let hourly = Fetchsched.root.appendingPathComponent("examples/policies/hourly.py").path
        let body = "setsid sh -c 'echo $$ > \(child); exec sleep 300' &\nexec python3 \(hourly)"
        let (policy, _) = try ExecHardeningTests.policy(body, dir: dir)
        let r = try await Fetchsched.run(["replay", Self.sample, "--policy", policy, "--exec-timeout", "5", "--quiet"], limit: 120)
        #expect(r.status == 0, "\(r.err)")
        #expect(!ExecHardeningTests.isRunning(try ExecHardeningTests.pid(in: child)), "the grandchild outlived the run")
    }

    /// A last row that is whole by its format is read though no newline follows it (as many
    /// tools write files); a row the format shows to be cut is still refused.
    @Test func aCompleteLastLineWithoutANewlineIsRead() async throws {
        let dir = Fetchsched.temp()
        let tables = ["applications_foreground", "screen", "battery", "network"]
        for t in tables {
            try FileManager.default.copyItem(atPath: Fetchsched.root.appendingPathComponent("data/import/aware/\(t).csv").path,
                                             toPath: dir + "/\(t).csv")
        }
        let device = "4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11"
        try "device_id,tzcode,timestamp\n\(device),Europe/Helsinki,1710104400000".write(toFile: dir + "/timezone.csv", atomically: true,
                                                                                         encoding: .utf8)
        let files = (tables + ["timezone"]).map { dir + "/\($0).csv" }
        let r = try await Fetchsched.run(["import", "--from", "aware", "--out", dir + "/log.csv"] + files)
        #expect(r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: dir + "/log.csv", encoding: .utf8).contains("+02:00"))
        try "device_id,tzcode,timestamp\n\(device),Europe/Hel".write(toFile: dir + "/timezone.csv", atomically: true, encoding: .utf8)
        let cut = try await Fetchsched.run(["import", "--from", "aware", "--out", dir + "/cut.csv"] + files)
        #expect(cut.status == 1 && cut.err.contains("timezone.csv:2: the file ends inside this line"), "\(cut.err)")
    }

    @Test func shardsOfOtherPoliciesSayTheirPoliciesDiffer() async throws {
        let dir = Fetchsched.temp()
        for (i, policies) in ["none", "none,fixed:60m"].enumerated() {
            let r = try await Fetchsched.run(["bench", Self.sample, "--policies", policies, "--shard", "\(i)/2"])
            try r.out.write(toFile: dir + "/s\(i).json", atomically: true, encoding: .utf8)
        }
        let r = try await Fetchsched.run(["merge", dir + "/s0.json", dir + "/s1.json"])
        #expect(r.status != 0 && r.err.contains("its policies differ") && !r.err.contains("policies differs"), "\(r.err)")
    }
}
