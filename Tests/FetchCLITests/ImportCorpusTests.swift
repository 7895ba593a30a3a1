import Foundation
import Testing

/// data/import/usagestats: a dump in the form each Android release prints it, written from the
/// published format (the sections, the localized dates before Android 10, `MOVE_TO_FOREGROUND`
/// before and `ACTIVITY_RESUMED` from Android 10, `taskRootPackage`, profiles, the types Android
/// 14 cannot name), each taken through `import`, `bench` and `next`.
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
        Case(file: "android7-pt-BR.txt", flags: ["--user", "br", "--time-zone", "America/Sao_Paulo", "--date-order", "dmy"],
             opens: ["br com.whatsapp 07:58", "br com.whatsapp 07:59", "br br.com.bb.android 08:04", "br com.whatsapp 12:21"],
             leftOut: ["duplicate row 2", "usage event USER_INTERACTION 1"]),
        Case(file: "android9.txt", flags: ["--user", "lg", "--time-zone", "Asia/Seoul"],
             opens: ["lg com.google.android.youtube 14:13", "lg com.google.android.youtube 22:10"],
             leftOut: ["usage event STANDBY_BUCKET_CHANGED 1"]),
        Case(file: "android14.txt", flags: ["--user", "px", "--time-zone", "Europe/Berlin"],
             opens: ["px com.google.android.apps.messaging 07:58", "px org.wikipedia 08:02", "px-10 com.google.android.gm 09:30"],
             leftOut: ["unknown usage event type UNKNOWN_TYPE_32 1", "unknown usage event type UNKNOWN_TYPE_33 1"]),
    ]

    @Test(arguments: cases)
    func eachReleasesDumpImportsBenchesAndPlans(c: Case) throws {
        let dir = Fetchsched.temp()
        let log = dir + "/log.csv", store = dir + "/store.db"
        let fixture = Fetchsched.root.appendingPathComponent("data/import/usagestats/" + c.file).path
        let i = try Fetchsched.run(["import", "--from", "usagestats", fixture, "--out", log] + c.flags)
        #expect(i.status == 0, "\(i.err)")
        for text in c.leftOut { #expect(i.err.contains(text), "\(i.err)") }
        let rows = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").dropFirst()
        let opens = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false) }.filter { $0[3] == "open" }
            .map { "\($0[1]) \($0[2]) \($0[0].dropFirst(11).prefix(5))" }
        #expect(opens == c.opens)
        let b = try Fetchsched.run(["bench", log, "--policies", "none,adaptive,oracle", "--format", "csv"])
        #expect(b.status == 0 && b.out.split(separator: "\r\n").count == 4, "\(b.err)")
        let g = try Fetchsched.run(["ingest", log, "--db", store])
        #expect(g.status == 0, "\(g.err)")
        let first = try #require(c.opens.first?.split(separator: " "))
        let n = try Fetchsched.run(["next", "--db", store, "--user", String(first[0]), "--app", String(first[1]), "--format", "json"])
        #expect(n.status == 0 && n.out.contains("\"plan\""), "\(n.err)")
    }
}
