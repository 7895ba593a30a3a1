import FetchCore
import FetchImport
import Testing

/// The rules that turn foreground moves into opens, over random move sequences.
struct ImportRulesTests {
    static let apps = ["com.a", "com.b", "org.c"]
    static let others = ["com.google.android.apps.nexuslauncher", "com.android.systemui", "com.google.android.inputmethod.latin"]

    /// Over random moves, screen events, unlocks and shutdowns: every open, `screen_on` and
    /// `screen_off` the rules keep is the one a plain reference of the rules keeps.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func opensFollowTheRulesOverRandomMoves(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let rules = ForegroundRules()
        var rows: [ImportedRow] = []
        for i in 0..<500 {
            let pick = Int(rng.next() % 10)
            let kind: ImportedRow.Kind = switch pick {
            case 0..<3: .foreground(app: Self.apps[pick])
            case 3..<6: .foreground(app: Self.others[pick - 3])
            case 6: .event(.screenOff, app: "", value: "")
            case 7: .event(.screenOn, app: "", value: "")
            case 8: .unlocked
            default: .shutdown
            }
            rows.append(ImportedRow(user: "u", millis: Int64(i) * 1000, offsetMinutes: 0, kind: kind))
        }
        var dropped = 0, sameWake = 0
        let out = rules.apply(rows, dropped: &dropped, sameWake: &sameWake)
        // Nothing but the apps' opens and the screen events comes out, in time order.
        #expect(out.map(\.millis) == out.map(\.millis).sorted())
        func count(_ kind: EventKind) -> Int { out.filter { if case .event(kind, _, _) = $0.kind { true } else { false } }.count }
        // Reference: an app's move is an open unless the same app was the last app moved to with
        // no launcher move, screen event, unlock or shutdown between. An unlock is a screen_on
        // unless the screen came on with no screen_off or unlock since; a shutdown a screen_off
        // unless the last screen event kept is one.
        var (opens, ons, offs) = (0, 0, 0)
        var current: String?
        var lit = false, off = false
        for row in rows {
            switch row.kind {
            case .foreground(let app) where Self.apps.contains(app):
                if current != app { opens += 1 }
                current = app
            case .foreground(let app) where app.contains("launcher"): current = nil
            case .event(.screenOff, _, _): (current, lit, off, offs) = (nil, false, true, offs + 1)
            case .event(.screenOn, _, _): (current, lit, off, ons) = (nil, true, false, ons + 1)
            case .unlocked:
                if !lit { (current, off, ons) = (nil, false, ons + 1) }
                lit = false
            case .shutdown:
                if !off { offs += 1 }
                (current, lit, off) = (nil, false, true)
            default: break
            }
        }
        #expect(count(.open) == opens)
        #expect(count(.screenOn) == ons && count(.screenOff) == offs)
        #expect(out.count == opens + ons + offs)
        #expect(dropped + sameWake == rows.count - out.count)
    }

    @Test(arguments: [("+01:00", 60), ("-05:30", -330), ("Z", 0), ("+0200", 120), ("+18:00", 1080)])
    func offsetsParse(text: String, minutes: Int) {
        #expect(UTCOffsetRule.parseOffset(text) == minutes)
    }

    @Test(arguments: ["+19:00", "01:00", "+1:00", "+01:60", "+01-00", "", "+01:00:00"])
    func badOffsetsAreRefused(text: String) {
        #expect(UTCOffsetRule.parseOffset(text) == nil)
    }

    @Test func csvFieldsKeepQuotedCommasAndRefuseStrayQuotes() throws {
        #expect(try CSVFields.split(#"1,"Yle Areena, TV","say ""hi""",,x"#) == ["1", "Yle Areena, TV", #"say "hi""#, "", "x"])
        #expect(try CSVFields.split("a,b\r") == ["a", "b"])
        #expect(throws: ImportProblem.self) { try CSVFields.split(#"a,b"c"#) }
        #expect(throws: ImportProblem.self) { try CSVFields.split(#""open"#) }
        #expect(throws: ImportProblem.self) { try CSVFields.split(#""a"b"#) }
    }
}

/// Dump dates as phones of each locale and Android release print them (issue 36).
struct DumpDateTests {
    static func iso(_ millis: Int64) -> String { String(LocalTime.isoText(millis, offsetMinutes: 0).prefix(19)) }

    @Test(arguments: [
        ("2024-03-11 14:26:15", nil, "2024-03-11T14:26:15"),  // Android 10 and later
        ("03/09/2017 21:18", DumpDate.Order.dmy, "2017-09-03T21:18:00"),  // Portuguese, as the issue's dump
        ("03/09/2017 21:18", .mdy, "2017-03-09T21:18:00"),
        ("23/09/2017 21:18", nil, "2017-09-23T21:18:00"),  // a day past 12 says the order
        ("9/23/17, 9:18 PM", nil, "2017-09-23T21:18:00"),  // US English
        ("3/9/17 12:05\u{202F}AM", .mdy, "2017-03-09T00:05:00"),  // ICU's narrow space before AM
        ("09.03.2017 21:18:05", .dmy, "2017-03-09T21:18:05"),  // German
        ("2017/3/9 21:18", nil, "2017-03-09T21:18:00"),  // Japanese
        ("05/05/2018 7:00:01", nil, "2018-05-05T07:00:01"),  // day and month the same: either way
    ])
    func aDumpsDateReadsAsTheLocaleWroteIt(text: String, order: DumpDate.Order?, expected: String) throws {
        #expect(Self.iso(try DumpDate.wallClock(text, order: order)) == expected)
    }

    @Test(arguments: [
        ("03/09/2017 21:18", "give --date-order dmy or mdy"),
        ("2024-02-30 07:58:02", "is not a date"),
        ("13/13/2017 10:00", "is not a date"),
        ("3/19/17 13:05 PM", "is not a 12-hour time"),
        ("11 mars 2017 10:00", "in digits as a dump prints them"),
        ("11-mars-2017 10:00", "is not a date of digits"),
        ("2017-03-09 24:00", "is not a time"),
        ("2017-03-09", "is not a date and a time"),
        ("20170309 10:00", "has no date such as"),
        ("1/2/1960 10:00", "between 1970 and 2100"),
    ])
    func aDateThatCannotBeReadSaysWhy(text: String, message: String) {
        #expect(throws: ImportProblem.self) { try DumpDate.wallClock(text, order: nil) }
        do { _ = try DumpDate.wallClock(text, order: nil) } catch { #expect(error.message.contains(message), "\(error.message)") }
    }
}

/// knowledgeC records with any values a database may hold: each one becomes rows within the
/// log's bounds or a problem, never a trap.
struct KnowledgeRecordTests {
    static let doubles: [Double] = [.nan, .infinity, -.infinity, 0, -1e300, 1e300, 731_833_200, -978_307_200, 3_155_760_000, 50, 100.4, 101, -0.5]

    @Test(arguments: [UInt64(1), 2, 3])
    func anyRecordBecomesBoundedRowsOrAProblem(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var records: [KnowledgeRecord] = []
        for key in 0..<400 {
            let stream = KnowledgeRecord.Stream.allCases[Int(rng.next() % 4)]
            let pick = { (rng: inout SplitMix64) in Self.doubles[Int(rng.next() % UInt64(Self.doubles.count))] }
            let start = rng.next() % 3 == 0 ? pick(&rng) : 731_833_200 + Double(key) * 60
            let end = rng.next() % 3 == 0 ? pick(&rng) : start + 30
            let offset = [0, 3600, -14_400, 64_800, 64_801, Int.max, Int.min][Int(rng.next() % 7)]
            let string = ["com.app", "", String(repeating: "x", count: 300), "a\u{0}b", nil][Int(rng.next() % 5)]
            records.append(KnowledgeRecord(key: Int64(key), stream: stream, start: start, end: end, secondsFromGMT: offset,
                                           string: string, number: rng.next() % 2 == 0 ? pick(&rng) : Double(rng.next() % 3)))
        }
        records.sort { ($0.start.isNaN ? 0 : $0.start) < ($1.start.isNaN ? 0 : $1.start) }
        var log = ImportedLog()
        var problems = 0
        try KnowledgeRecord.rows(records, user: "kim", into: &log) { _, _ in problems += 1 }
        #expect(problems > 0 && !log.rows.isEmpty)
        for row in log.rows {
            #expect(InputBounds.timestamps.contains(row.millis))
            #expect(abs(row.offsetMinutes) <= UTCOffsetRule.maxMinutes)
            if case .event(.battery, _, let value) = row.kind { #expect((0...100).contains(Int(value) ?? -1)) }
        }
    }
}
