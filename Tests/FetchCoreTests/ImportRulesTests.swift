import FetchCore
import Testing

/// The rules that turn foreground moves into opens, over random move sequences.
struct ImportRulesTests {
    static let apps = ["com.a", "com.b", "org.c"]
    static let others = ["com.google.android.apps.nexuslauncher", "com.android.systemui", "com.google.android.inputmethod.latin"]

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func opensFollowTheRulesOverRandomMoves(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let rules = ForegroundRules()
        var rows: [ImportedRow] = []
        for i in 0..<500 {
            let pick = Int(rng.next() % 8)
            let kind: ImportedRow.Kind = switch pick {
            case 0..<3: .foreground(app: Self.apps[pick])
            case 3..<6: .foreground(app: Self.others[pick - 3])
            case 6: .event(.screenOff, app: "", value: "")
            default: .event(.screenOn, app: "", value: "")
            }
            rows.append(ImportedRow(user: "u", millis: Int64(i) * 1000, offsetMinutes: 0, kind: kind))
        }
        var dropped = 0
        let out = rules.apply(rows, dropped: &dropped)
        // Nothing but the apps' opens and the screen events comes out, in time order.
        #expect(out.map(\.millis) == out.map(\.millis).sorted())
        let opens = out.filter { if case .event(.open, _, _) = $0.kind { true } else { false } }
        #expect(out.count - opens.count == rows.filter { if case .event = $0.kind { true } else { false } }.count)
        // Reference: an app's move is an open unless the same app was the last app moved to
        // with no launcher move or screen-off between.
        var expected = 0
        var current: String?
        for row in rows {
            switch row.kind {
            case .foreground(let app) where Self.apps.contains(app):
                if current != app { expected += 1 }
                current = app
            case .foreground(let app) where app.contains("launcher"): current = nil
            case .event(.screenOff, _, _): current = nil
            default: break
            }
        }
        #expect(opens.count == expected)
        #expect(dropped == rows.count - (out.count))
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
