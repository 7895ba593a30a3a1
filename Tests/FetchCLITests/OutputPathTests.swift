import FetchStorage
import FetchSQLite
import Foundation
import Testing

/// Issue 34's output findings: `--out` and `--trace` never replace what the run did not create,
/// `next` for a user without events is an error rather than a crash, and a trace's names are
/// quoted as every CSV field is.
struct OutputPathTests {
    /// The commands that write a file, with the option naming it.
    static let writers: [(String, [String])] = [
        ("trace", ["replay", CommandTests.sample, "--policy", "fixed:60m", "--quiet", "--trace"]),
        ("generate", ["generate", "--users", "2", "--days", "1", "--out"]),
        ("bench report", ["bench", CommandTests.sample, "--policies", "none", "--quiet", "--report"]),
    ]

    @Test(arguments: writers.map(\.1))
    func aSymlinkIsRefusedAndWhatItPointsAtIsLeftAlone(args: [String]) async throws {
        let dir = Fetchsched.temp()
        let target = dir + "/target", link = dir + "/link"
        try "keep\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let r = try await Fetchsched.run(args + [link])
        #expect(r.status == 1 && r.err.contains("is a symbolic link"), "\(r.err)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["link", "target"], "a partial file was left")
    }

    @Test(arguments: writers.map(\.1))
    func aDeviceIsWrittenInPlaceNotReplaced(args: [String]) async throws {
        let r = try await Fetchsched.run(args + ["/dev/null"])
        #expect(r.status == 0, "\(r.err)")
        var st = stat()
        #expect(lstat("/dev/null", &st) == 0 && st.st_mode & S_IFMT == S_IFCHR)
    }

    /// `-`, `/dev/stdout` and `/dev/fd/1` are standard output by Unix convention, written through
    /// whatever the shell made of it: a file it redirected to (appended to, with `>>`), a pipe.
    @Test(arguments: ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
    func standardOutputByAnyNameIsWrittenThroughItsDescriptor(name: String) async throws {
        let dir = Fetchsched.temp()
        let binary = Fetchsched.binary.path
        let r = try await Fetchsched.shell("""
            cd '\(dir)' && printf 'kept\\n' > x.csv && '\(binary)' generate --users 2 --days 1 --out '\(name)' >> x.csv && \
            '\(binary)' generate --users 2 --days 1 --out '\(name)' | wc -l > lines
            """)
        #expect(r.status == 0, "\(r.err)")
        let written = try String(contentsOfFile: dir + "/x.csv", encoding: .utf8)
        #expect(written.hasPrefix("kept\ntimestamp,user,app,event,value\n") && written.count > 100, "\(written.prefix(200))")
        let lines = try String(contentsOfFile: dir + "/lines", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(lines) == written.split(separator: "\n").count - 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["lines", "x.csv"], "a file named as the output was made")
    }

    @Test func aDescriptorThatIsNotOpenIsACleanError() async throws {
        let r = try await Fetchsched.run(["generate", "--users", "2", "--days", "1", "--out", "/dev/fd/57"])
        #expect(r.status == 1 && r.err.contains("descriptor 57 is not open"), "\(r.err)")
    }

    @Test func aDirectoryAndAFIFOWithNoReaderAreRefusedAtOnce() async throws {
        let dir = Fetchsched.temp()
        let fifo = dir + "/fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        for (path, message) in [(dir, "is a directory"), (fifo, "a FIFO that nothing reads")] {
            let r = try await Fetchsched.run(["replay", CommandTests.sample, "--policy", "none", "--quiet", "--trace", path], limit: 60)
            #expect(r.status == 1 && r.err.contains(message), "\(r.err)")
        }
    }

    @Test(arguments: [[], ["--format", "json"], ["--explain"], ["--at", "2025-01-07T00:00:00Z"]])
    func nextForAUserWithoutEventsSaysSoAndExitsOne(extra: [String]) async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/s.sqlite"
        #expect(try await Fetchsched.run(["ingest", CommandTests.sample, "--db", db]).status == 0)
        let r = try await Fetchsched.run(["next", "--db", db, "--user", "nobody", "--app", "y"] + extra)
        #expect(r.status == 1 && r.err.contains("no events of user 'nobody'"), "\(r.status) \(r.err)")
    }

    @Test(arguments: [["--user", "\u{FEFF}user-0001", "--app", "com.example.news"], ["--user", "user-0001", "--app", "\u{FEFF}news"],
                      ["--user", "", "--app", "news"]])
    func nextRefusesANameTheOtherDoorsRefuse(names: [String]) async throws {
        let r = try await Fetchsched.run(["next", "--db", "/nonexistent.sqlite"] + names)
        #expect(r.status != 0 && (r.err.contains("U+FEFF") || r.err.contains("is empty")), "\(r.err)")
    }

    @Test func aTracesNamesAreQuotedAndReadBack() async throws {
        let dir = Fetchsched.temp()
        let log = dir + "/log.jsonl", trace = dir + "/trace.csv"
        let rows = ["2025-01-06T08:00:00+01:00", "2025-01-06T09:00:00+01:00"].map { t in
            #"{"timestamp":"\#(t)","user":"ann, \"the\" tester","app":"news, daily","event":"open","value":""}"#
        }
        try (rows.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["replay", log, "--policy", "fixed:15m", "--trace", trace, "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        let parsed = CSVOutputTests.parse(try String(contentsOfFile: trace, encoding: .utf8))
        #expect(parsed.count > 1)
        for row in parsed.dropFirst() {
            #expect(row.count == 9 && row[0] == #"ann, "the" tester"# && row[1] == "news, daily", "\(row)")
        }
    }
}

/// Issue 34: over SQLite the service owns the file, so a second writer is refused at once
/// rather than left unseen by the service's memory.
struct WriterLockTests {
    @Test func anIngestIntoAStoreAnotherProcessWritesIsRefusedAndStoresNothing() async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/s.sqlite"
        do {
            let held = try SQLiteStore(path: db, writer: true)  // as a running service holds it
            let r = try await Fetchsched.run(["ingest", CommandTests.sample, "--db", db])
            #expect(r.status == 1 && r.err.contains("is being written by another process"), "\(r.err)")
            #expect(try held.counts().events == 0)
            let serve = try await Fetchsched.run(["serve", "--db", db, "--port", "18123"], limit: 60)
            #expect(serve.status == 1 && serve.err.contains("is being written by another process"), "\(serve.err)")
            // Readers take no claim.
            #expect(try await Fetchsched.run(["replay", "--db", db, "--policy", "none", "--quiet"]).status == 0)
        }
        // Released with the store: the same ingest now stores the log.
        let r = try await Fetchsched.run(["ingest", CommandTests.sample, "--db", db])
        #expect(r.status == 0, "\(r.err)")
    }
}
