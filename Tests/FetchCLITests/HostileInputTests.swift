import Foundation
import Testing

/// Issue 10 on the command line: every out-of-range number, odd file or hostile byte gets a
/// clear message and a non-zero exit, never a crash (exit 132/134) or a silent success.
struct HostileInputTests {
    static let sample = CommandTests.sample

    func expectRefused(_ args: [String], says: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let r = try await Fetchsched.run(args)
        #expect(r.status == 1 || r.status == 64, "exit \(r.status): \(r.err)", sourceLocation: sourceLocation)
        #expect(r.err.contains(says), "\(r.err)", sourceLocation: sourceLocation)
    }

    @Test func hugeDurationsAreRefusedNotOverflowed() async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/s.sqlite"
        #expect(try await Fetchsched.run(["ingest", Self.sample, "--db", db]).status == 0)
        try await expectRefused(["next", "--db", db, "--user", "user-0001", "--app", "com.example.news", "--horizon", "99999999999999999999h"],
                          says: "--horizon")
        try await expectRefused(["next", "--db", db, "--user", "user-0001", "--app", "com.example.news", "--horizon", "8d"], says: "--horizon")
        try await expectRefused(["replay", Self.sample, "--policy", "fixed:99999999999999999999h"], says: "fixed")
        try await expectRefused(["replay", Self.sample, "--threads", "100000000"], says: "--threads must be 1 to 256")
        try await expectRefused(["serve", "--db", dir + "/p.sqlite", "--port", "99999"], says: "--port must be 0 to 65535")
    }

    @Test func aPlanFarPastTheLastEventSaysSoInsteadOfRunningForYears() async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/s.sqlite"
        #expect(try await Fetchsched.run(["ingest", Self.sample, "--db", db]).status == 0)
        let r = try await Fetchsched.run(["next", "--db", db, "--user", "user-0001", "--app", "com.example.news", "--at", "2099-12-31T00:00:00Z"])
        #expect(r.status == 0)
        #expect(r.out.contains("more than 7d after the user's last event"))
        try await expectRefused(["next", "--db", db, "--user", "user-0001", "--app", "com.example.news", "--at", "9999-12-31T00:00:00Z"],
                          says: "outside 1970-01-01T00:00:00Z to 2100-01-01T00:00:00Z")
    }

    @Test(arguments: ["check", "replay", "ingest"])
    func aDirectoryOrAnEmptyFileIsNotALog(command: String) async throws {
        let dir = Fetchsched.temp()
        let empty = dir + "/empty.csv"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let extra = command == "ingest" ? ["--db", dir + "/s.sqlite"] : []
        try await expectRefused([command, dir] + extra, says: "is not a regular file")
        try await expectRefused([command, empty] + extra, says: "is empty")
    }

    @Test func messagesShowControlBytesEscaped() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/bad.csv"
        try "timestamp,user,app,event,value\n2025-01-06T07:00:00Z,u,a,bogus\u{1B}[2J,\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["check", path])
        #expect(r.status != 0)
        #expect(r.err.contains("unknown event 'bogus\\u{1B}[2J'"), "\(r.err)")
        #expect(!r.err.contains("\u{1B}"))
    }

    @Test(arguments: [
        ("2025-01-06T07:00:00Z,u\u{0},a,open,", "field 'user' holds a control character"),
        ("2025-01-06T07:00:00Z,u,\(String(repeating: "a", count: 201)),open,", "field 'app' is 201 bytes long"),
        ("9999-12-31T00:00:00Z,u,a,open,", "outside 1970"),
        ("99999999999,u,a,open,", "outside 1970"),
        ("-5,u,a,open,", "outside 1970"),
    ])
    func rowsOutOfRangeStopAtTheirLine(row: String, says: String) async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/bad.csv"
        try "timestamp,user,app,event,value\n\(row)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try await expectRefused(["check", path], says: "\(path):2: ")
        try await expectRefused(["check", path], says: says)
    }

    @Test func aLineLongerThanTheReaderTakesIsOneBadRow() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/long.csv"
        let long = String(repeating: "x", count: 3 << 20)
        try "timestamp,user,app,event,value\n\(long)\n2025-01-06T07:00:00Z,u,a,open,\n".write(toFile: path, atomically: true, encoding: .utf8)
        try await expectRefused(["check", path], says: "\(path):2: the line is longer than")
        let skipped = try await Fetchsched.run(["check", path, "--skip-invalid"])
        #expect(skipped.status == 0, "\(skipped.err)")
        #expect(skipped.out.hasPrefix("1 events, 1 users"), "\(skipped.out)")
    }

    @Test(arguments: [["replay"], ["replay", "--shard", "0/2"], ["bench", "--policies", "none"]])
    func aScenarioThatIsNotUTF8IsRefusedNotReadAsReplacementCharacters(command: [String]) async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/s.json"
        // 0xFF inside a string value: JSON that a lenient decoder would read as "a\u{FFFD}b".
        let bytes = Array(#"{"apps": {"a"#.utf8) + [0xFF] + Array(#"b": {"interval": "1h"}}}"#.utf8)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        try await expectRefused([command[0], Self.sample] + command.dropFirst() + ["--scenario", path], says: "scenario '\(path)': not valid UTF-8")
    }
}
