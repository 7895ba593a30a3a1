import FetchCore
import FetchStorage
import FetchSQLite
import Testing

/// Reading log files: errors name file and line, invalid rows can be skipped and counted,
/// several files merge by time.
struct LogSourceTests {
    func readAll(_ paths: [String], skip: Bool = false) throws -> (events: [UsageEvent], source: LogSource) {
        var source = try LogSource(paths: paths, skipInvalid: skip)
        var events: [UsageEvent] = []
        while let e = try source.next() { events.append(e) }
        return (events, source)
    }

    static let good = """
        timestamp,user,app,event,value
        2025-01-06T07:00:00+01:00,u1,,screen_on,
        2025-01-06T07:00:05+01:00,u1,news,open,
        """

    @Test func aBadRowStopsTheReadNamingFileAndLine() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let path = dir.file("bad.csv", Self.good + "\n2025-01-06T07:01:00+01:00,u1,news,opened,\n")
        do {
            _ = try readAll([path])
            Issue.record("read a bad log")
        } catch let e as LogError {
            #expect(e.file == path && e.line == 4 && e.problem.kind == .unknownEvent)
            #expect(e.description.hasPrefix("\(path):4: unknown event 'opened'"))
        }
    }

    @Test func skipInvalidSkipsAndCountsByReason() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let path = dir.file("mixed.csv", Self.good + """

            soon,u1,news,open,
            2025-01-06T07:02:00+01:00,u1,news,opened,
            2025-01-06T07:03:00+01:00,u1,,battery,
            2025-01-06T07:04:00+01:00,u1,,battery,120
            2025-01-06T06:00:00+01:00,u1,news,open,
            2025-01-06T07:05:00+01:00,u1,news,open,

            """)
        let (events, source) = try readAll([path], skip: true)
        #expect(events.count == 3)
        #expect(source.skipped == [.badTimestamp: 1, .unknownEvent: 1, .missingField: 1, .badValue: 1, .outOfOrder: 1])
        #expect(source.skippedSummary == "badTimestamp 1, unknownEvent 1, missingField 1, badValue 1, outOfOrder 1")
    }

    @Test func filesInterleavedInTimeAreMergedInTimeOrder() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let a = dir.file("a.csv", "timestamp,user,app,event,value\n100,u1,x,open,\n300,u2,x,open,\n500,u1,x,open,\n")
        let b = dir.file("b.jsonl", #"{"timestamp":200,"user":"u1","event":"screen_on"}"# + "\n" + #"{"timestamp":400,"user":"u2","app":"y","event":"open"}"# + "\n")
        let (events, _) = try readAll([a, b])
        #expect(events.map(\.time.millis) == [100_000, 200_000, 300_000, 400_000, 500_000])
    }

    @Test func aMissingFileIsAClearError() {
        #expect(throws: InputError.self) { try LogSource(paths: ["/nonexistent/log.csv"]) }
    }

    @Test func aBadHeaderIsReportedOnLineOne() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let path = dir.file("h.csv", "time,user,app,event,value\n1,u,a,open,\n")
        #expect { try readAll([path]) } throws: { ($0 as? LogError)?.line == 1 }
    }
}
