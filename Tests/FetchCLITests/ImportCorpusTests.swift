import Foundation
import Testing

/// data/import/usagestats: a dump in the form each Android release prints it, written from the
/// published format (the sections, the localized dates before Android 10, `MOVE_TO_FOREGROUND`
/// before and `ACTIVITY_RESUMED` from Android 10, `taskRootPackage`, profiles, the types Android
/// 14 cannot name), each taken through `import`, `bench` and `next`: Android 5 (US English, a
/// 12-hour clock, the Google Now Launcher inside the Google app), 7 (Portuguese), 9, 10 (a
/// resolver in another app's task), 12 (Japanese ranges, a picker in another app's task, the
/// types added since) and 14.
struct ImportCorpusTests {
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var flags: [String]
        /// The opens import must write, `user app HH:MM` each.
        var opens: [String]
        /// What import must say it left out.
        var leftOut: [String]
        var description: String { file }
    }

    static let cases = [
        Case(file: "android5.txt", flags: ["--user", "n5", "--time-zone", "America/New_York", "--date-order", "mdy"],
             opens: ["n5 com.android.chrome 07:58", "n5 com.google.android.gm 08:05", "n5 com.google.android.googlequicksearchbox 12:30",
                     "n5 com.android.chrome 12:31"],
             leftOut: ["duplicate row 2", "usage event MOVE_TO_BACKGROUND 9"]),
        Case(file: "android7-pt-BR.txt", flags: ["--user", "br", "--time-zone", "America/Sao_Paulo", "--date-order", "dmy"],
             opens: ["br com.whatsapp 07:58", "br com.whatsapp 07:59", "br br.com.bb.android 08:04", "br com.whatsapp 12:21"],
             leftOut: ["duplicate row 2", "usage event USER_INTERACTION 1"]),
        Case(file: "android9.txt", flags: ["--user", "lg", "--time-zone", "Asia/Seoul"],
             opens: ["lg com.google.android.youtube 14:13", "lg com.google.android.youtube 22:10"],
             leftOut: ["usage event STANDBY_BUCKET_CHANGED 1"]),
        Case(file: "android10.txt", flags: ["--user", "p10", "--time-zone", "Europe/London"],
             opens: ["p10 com.whatsapp 22:10", "p10 com.google.android.youtube 22:11", "p10 com.google.android.youtube 07:02",
                     "p10 com.whatsapp 07:04"],
             leftOut: ["usage event DEVICE_STARTUP 1", "usage event CHOOSER_ACTION 1"]),
        Case(file: "android12.txt", flags: ["--user", "s12", "--time-zone", "Asia/Tokyo"],
             opens: ["s12 jp.naver.line.android 06:45", "s12 com.google.android.apps.maps 06:50", "s12 jp.naver.line.android 07:30"],
             leftOut: ["usage event LOCUS_ID_SET 1", "usage event SHORTCUT_INVOCATION 1"]),
        Case(file: "android14.txt", flags: ["--user", "px", "--time-zone", "Europe/Berlin"],
             opens: ["px com.google.android.apps.messaging 07:58", "px org.wikipedia 08:02", "px-10 com.google.android.gm 09:30"],
             leftOut: ["unknown usage event type UNKNOWN_TYPE_32 1", "unknown usage event type UNKNOWN_TYPE_33 1"]),
    ]

    @Test(arguments: cases)
    func eachReleasesDumpImportsBenchesAndPlans(c: Case) async throws {
        let dir = Fetchsched.temp()
        let log = dir + "/log.csv", store = dir + "/store.db"
        let fixture = Fetchsched.root.appendingPathComponent("data/import/usagestats/" + c.file).path
        let i = try await Fetchsched.run(["import", "--from", "usagestats", fixture, "--out", log] + c.flags)
        #expect(i.status == 0, "\(i.err)")
        for text in c.leftOut { #expect(i.err.contains(text), "\(i.err)") }
        let rows = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").dropFirst()
        let opens = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false) }.filter { $0[3] == "open" }
            .map { "\($0[1]) \($0[2]) \($0[0].dropFirst(11).prefix(5))" }
        #expect(opens == c.opens)
        let first = try #require(c.opens.first?.split(separator: " "))
        try await Self.benchIngestAndPlan([log], store: store, user: String(first[0]), app: String(first[1]))
    }

    /// The imported logs through bench (three policies, three rows), ingest and next for `app`.
    static func benchIngestAndPlan(_ logs: [String], store: String, user: String, app: String) async throws {
        let b = try await Fetchsched.run(["bench"] + logs + ["--policies", "none,adaptive,oracle", "--format", "csv"])
        #expect(b.status == 0 && b.out.split(separator: "\r\n").count == 4, "\(b.err)")
        let g = try await Fetchsched.run(["ingest"] + logs + ["--db", store])
        #expect(g.status == 0, "\(g.err)")
        let n = try await Fetchsched.run(["next", "--db", store, "--user", user, "--app", app, "--format", "json"])
        #expect(n.status == 0 && n.out.contains("\"plan\""), "\(n.err)")
    }

    /// data/import/aware: AWARE's CSV as its Android client exports it, through import, bench,
    /// ingest and next (the device id is the user).
    @Test
    func anAndroidAwareExportImportsBenchesAndPlans() async throws {
        let dir = Fetchsched.temp()
        let log = dir + "/aware.csv", store = dir + "/store.db"
        let files = ["applications_foreground", "screen", "battery", "network", "timezone"]
            .map { Fetchsched.root.appendingPathComponent("data/import/aware/\($0).csv").path }
        let i = try await Fetchsched.run(["import", "--from", "aware", "--out", log] + files)
        #expect(i.status == 0 && i.err.contains("wrote 15 events"), "\(i.err)")
        try await Self.benchIngestAndPlan([log], store: store, user: "4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11", app: "com.spotify.music")
    }

    /// data/import/aware-ios: AWARE's CSV as its iOS framework writes it (no `_id` column, the
    /// lock state as 2 and 3, no battery adaptor and the charging state in Android's codes, no
    /// foreground apps). Its unlocks and charging come through, and beside the same person's
    /// knowledgeC.db (their opens) it benches and plans.
    @Test
    func anIPhonesAwareExportGivesUnlocksAndChargingBesideItsKnowledgeC() async throws {
        let dir = Fetchsched.temp()
        let aware = dir + "/aware.csv", opens = dir + "/opens.csv", store = dir + "/store.db"
        let files = ["screen", "battery", "network", "timezone"]
            .map { Fetchsched.root.appendingPathComponent("data/import/aware-ios/\($0).csv").path }
        let i = try await Fetchsched.run(["import", "--from", "aware", "--user", "kim", "--out", aware] + files)
        #expect(i.status == 0, "\(i.err)")
        let rows = try String(contentsOfFile: aware, encoding: .utf8).split(separator: "\n").dropFirst()
        func count(_ event: String) -> Int { rows.filter { $0.split(separator: ",", omittingEmptySubsequences: false)[3] == event }.count }
        #expect(count("screen_on") == 4 && count("screen_off") == 4)
        #expect(count("plugged") == 2 && count("unplugged") == 1, "charging read from battery_status with no adaptor")
        #expect(rows.first == "2024-03-11T07:00:00.000+01:00,kim,,plugged,")
        let db = Fetchsched.root.appendingPathComponent("data/import/knowledgec/knowledgeC.db").path
        let k = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", opens])
        #expect(k.status == 0, "\(k.err)")
        try await Self.benchIngestAndPlan([aware, opens], store: store, user: "kim", app: "com.atebits.Tweetie2")
    }
}
