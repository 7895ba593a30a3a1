import FetchCore
import Testing

/// Log rows: what is accepted, and what each rejection says.
struct ParsingTests {
    func parse(_ line: String) throws(RowProblem) -> UsageEvent? {
        var parser = CSVLineParser(decoder: RowDecoder())
        var bytes = Array(line.utf8)
        return try bytes.withUnsafeMutableBufferPointer { (b) throws(RowProblem) in try parser.parse(UnsafeBufferPointer(b)) }
    }

    func problem(_ line: String) -> RowProblem? {
        do { _ = try parse(line); return nil } catch { return error }
    }

    @Test func isoTimestampsKeepTheirOffset() throws {
        let e = try #require(try parse("2023-12-11T00:50:36.479+01:00,u,com.a,open,"))
        #expect(e.time.millis == 1_702_252_236_479)
        #expect(e.offsetMinutes == 60)
        #expect(LocalTime.isoText(e.time.millis, offsetMinutes: 60) == "2023-12-11T00:50:36.479+01:00")
    }

    @Test(arguments: [("2023-12-10T23:50:36Z", 0), ("2023-12-10T18:50:36-05:00", -300), ("2023-12-11T05:20:36+0530", 330)])
    func isoOffsetsAreMinutesEastOfUTC(text: String, offset: Int) throws {
        let e = try #require(try parse("\(text),u,,screen_on,"))
        #expect(e.time.millis == 1_702_252_236_000)
        #expect(Int(e.offsetMinutes) == offset)
    }

    @Test func unixSecondsAreUTC() throws {
        let e = try #require(try parse("1702252236.5,u,,battery,55"))
        #expect(e.time.millis == 1_702_252_236_500 && e.unixForm && e.value == 55)
    }

    /// A notification names the app that posted it, is a wake opportunity, and goes before an
    /// open of the same instant (after the other wakes): the stores' raw value comes last.
    @Test func aNotificationIsAnAppsWakeBeforeTheOpensOfItsInstant() throws {
        let n = try #require(try parse("1702252236,u,com.a,notification,"))
        #expect(n.kind == .notification && n.kind.isAppEvent && n.kind.isWakeOpportunity && n.kind.logName == "notification")
        #expect(EventKind.notification.rawValue == UInt8(EventKind.allCases.count - 1))
        var open = n, screenOn = n, screenOff = n
        (open.kind, screenOn.kind, screenOff.kind) = (.open, .screenOn, .screenOff)
        #expect(screenOn.canonicallyPrecedes(n) && n.canonicallyPrecedes(open) && open.canonicallyPrecedes(screenOff))
        let ranks = EventKind.allCases.map(\.canonicalRank)
        #expect(Set(ranks).count == ranks.count)
    }

    @Test func quotedFieldsAndCRLFAreAccepted() throws {
        let e = try #require(try parse("1702252236,\"u, the first\",\"com.\"\"a\"\"\",open,\r"))
        #expect(e.kind == .open)
    }

    @Test(arguments: [
        ("2023-12-11 00:50:36,u,a,open,", RowProblemKind.badTimestamp, "no UTC offset"),
        ("2023-13-11T00:50:36Z,u,a,open,", .badTimestamp, "not a valid date"),
        ("yesterday,u,a,open,", .badTimestamp, "neither ISO-8601 nor Unix"),
        // Past +18:00 in all, whether the hours or the minutes take it there (the fuzzer found it).
        ("2025-01-06T06:49:00.000+18:30,u,a,open,", .badTimestamp, "invalid UTC offset"),
        ("2025-01-06T06:49:00-18:01,u,a,open,", .badTimestamp, "invalid UTC offset"),
        ("2025-01-06T06:49:00+19:00,u,a,open,", .badTimestamp, "invalid UTC offset"),
        ("1702252236,u,a,opened,", .unknownEvent, "unknown event 'opened'"),
        ("1702252236,u,,open,", .missingField, "missing field 'app'"),
        ("1702252236,,a,open,", .missingField, "missing field 'user'"),
        ("1702252236,u,a,open", .missingField, "expected 5 fields"),
        ("1702252236,u,,battery,101", .badValue, "not a level 0-100"),
        ("1702252236,u,,network,5g", .badValue, "not wifi, cellular or none"),
        ("1702252236,u,,lowpower,", .missingField, "missing field 'value'"),
        ("1702252236,u,a,screen_on,", .badValue, "must leave 'app' empty"),
        ("1702252236,u,a,push,loud", .badValue, "not silent or alert"),
        ("1702252236,u,,notification,", .missingField, "missing field 'app'"),
        ("1702252236,u,a,notification,3", .badValue, "takes no value"),
        ("1702252236,u,a,notificatio,", .unknownEvent, "unknown event 'notificatio'"),
    ])
    func badRowsAreRejectedWithTheirReason(line: String, kind: RowProblemKind, says: String) {
        let p = problem(line)
        #expect(p?.kind == kind)
        #expect(p?.message.contains(says) == true, "\(p?.message ?? "accepted")")
    }

    @Test func theHeaderIsChecked() {
        var ok = Array(CSVLineParser.header.utf8), bad = Array("time,user,app,event,value".utf8)
        #expect(throws: Never.self) { try ok.withUnsafeMutableBufferPointer { (b) throws(RowProblem) in try CSVLineParser.checkHeader(UnsafeBufferPointer(b)) } }
        #expect(throws: RowProblem.self) { try bad.withUnsafeMutableBufferPointer { (b) throws(RowProblem) in try CSVLineParser.checkHeader(UnsafeBufferPointer(b)) } }
    }

    @Test func jsonLinesAcceptTheSameFields() throws {
        var parser = JSONLineParser(decoder: RowDecoder())
        func parse(_ s: String) throws(RowProblem) -> UsageEvent? {
            var b = Array(s.utf8)
            return try b.withUnsafeMutableBufferPointer { (p) throws(RowProblem) in try parser.parse(UnsafeBufferPointer(p)) }
        }
        let e = try #require(try parse(#"{"timestamp":1702252236.25,"user":"u","app":null,"event":"battery","value":40}"#))
        #expect(e.time.millis == 1_702_252_236_250 && e.value == 40 && e.app == -1)
        let o = try #require(try parse(#"{"timestamp":"2023-12-11T00:50:36+01:00","user":"u","app":"a","event":"open"}"#))
        #expect(o.kind == .open && o.offsetMinutes == 60)
        #expect(throws: RowProblem.self) { try parse(#"{"timestamp":1,"user":"u","event":"open","colour":"red"}"#) }
    }

    /// Decoding recurses once per level: a line nested a million deep (a fuzzer's find) is refused
    /// before it, and a string full of brackets is not nesting.
    @Test(arguments: [64, 65, 1_000_000])
    func aJSONLineNestedTooDeepIsRefusedByName(depth: Int) throws {
        var parser = JSONLineParser(decoder: RowDecoder())
        var b = Array(String(repeating: "[", count: depth).utf8)
        let problem = #expect(throws: RowProblem.self) {
            try b.withUnsafeMutableBufferPointer { (p) throws(RowProblem) in try parser.parse(UnsafeBufferPointer(p)) }
        }
        #expect((problem?.message.contains("nested deeper")) == (depth > JSONValue.maxNesting))
        let brackets = #"{"timestamp":1,"user":"\#(String(repeating: "[{", count: 200))\"","event":"screen_on"}"#
        #expect(JSONValue.nestsWithinBounds(Array(brackets.utf8)))
    }
}
