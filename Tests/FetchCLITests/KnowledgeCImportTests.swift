import Foundation
import GRDB
import Testing

/// `import --from knowledgec`: an iPhone's knowledgeC.db (the fixture scripts/knowledgec-fixture.py
/// writes) through `import`, `bench` and `next`, and databases that are not what they claim.
struct KnowledgeCImportTests {
    static let fixture = Fetchsched.root.appendingPathComponent("data/import/knowledgec/knowledgeC.db").path

    /// Worked by hand from the fixture's records: each stream's value at its start, in the
    /// record's own offset; a return to the same app after the home screen is a new open.
    static let expected = """
        timestamp,user,app,event,value
        2024-03-11T07:58:00.000+01:00,kim,,screen_on,
        2024-03-11T07:58:10.000+01:00,kim,com.atebits.Tweetie2,open,
        2024-03-11T08:04:00.000+01:00,kim,com.apple.mobilemail,open,
        2024-03-11T08:07:30.000+01:00,kim,com.atebits.Tweetie2,open,
        2024-03-11T08:09:10.000+01:00,kim,,screen_off,
        2024-03-11T22:00:00.000+01:00,kim,,plugged,
        2024-03-11T22:00:00.000+01:00,kim,,battery,35
        2024-03-11T23:30:00.000+01:00,kim,,battery,80
        2024-03-11T23:40:00.000+01:00,kim,,unplugged,
        2024-03-12T11:00:00.000-04:00,kim,,screen_on,
        2024-03-12T11:00:05.000-04:00,kim,net.whatsapp.WhatsApp,open,
        2024-03-12T11:20:00.000-04:00,kim,,screen_off,

        """

    @Test func anIPhonesKnowledgeDatabaseBecomesTheLogWorkedByHandAndPlans() async throws {
        let dir = Fetchsched.temp()
        let out = dir + "/kim.csv"
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.fixture))
        let r = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", Self.fixture, "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.expected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.fixture)) == before, "the database was written to")
        let b = try await Fetchsched.run(["bench", out, "--policies", "none,adaptive,oracle", "--format", "csv"])
        #expect(b.status == 0 && b.out.split(separator: "\r\n").count == 4, "\(b.err)")
        let store = dir + "/kim.db"
        let i = try await Fetchsched.run(["ingest", out, "--db", store])
        #expect(i.status == 0, "\(i.err)")
        let n = try await Fetchsched.run(["next", "--db", store, "--user", "kim", "--app", "com.atebits.Tweetie2", "--explain"])
        #expect(n.status == 0, "\(n.err)")
        #expect(n.out.contains("com.atebits.Tweetie2"), "\(n.out)")
    }

    /// A database written by anyone: each wrong value is named by its record, nothing traps.
    @Test(arguments: [
        ("ZSTARTDATE", "'yesterday'", "ZSTARTDATE is text, not a number"),
        ("ZSTARTDATE", "NULL", "ZSTARTDATE is NULL, not a number"),
        ("ZSTARTDATE", "1e300", "is not a date between 1970 and 2100"),
        ("ZSECONDSFROMGMT", "999999", "ZSECONDSFROMGMT 999999 is beyond"),
        ("ZVALUEINTEGER", "7", "is not 0 or 1"),
        ("ZVALUESTRING", "''", "bundle id) is empty"),
    ])
    func aWrongValueStopsAtItsRecordOrIsCounted(column: String, value: String, message: String) async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/knowledgeC.db"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: db)
        let queue = try DatabaseQueue(path: db)
        let stream = column == "ZVALUEINTEGER" ? "/device/isLocked" : "/app/inFocus"
        let sql = "UPDATE ZOBJECT SET \(column) = \(value) WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZOBJECT WHERE ZSTREAMNAME = ?)"
        try await queue.write { try $0.execute(sql: sql, arguments: [stream]) }
        try queue.close()
        let r = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", dir + "/out.csv"])
        #expect(r.status != 0)
        #expect(r.err.contains("ZOBJECT Z_PK=") && r.err.contains(message), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
        let s = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", dir + "/out.csv", "--skip-invalid"])
        #expect(s.status == 0 && s.err.contains("skipped (--skip-invalid): "), "\(s.err)")
    }

    @Test func anOffsetGivenForAKnowledgeDatabaseIsRefused() async throws {
        let r = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", "--utc-offset", "+01:00", Self.fixture,
                "--out", "/tmp/x.csv"])
        #expect(r.status != 0 && r.err.contains("each record carries the phone's offset"), "\(r.err)")
    }

    @Test func aFileThatIsNoKnowledgeDatabaseIsRefusedByWhatItLacks() async throws {
        let dir = Fetchsched.temp()
        let text = dir + "/notes.txt", other = dir + "/other.db"
        try #require(FileManager.default.createFile(atPath: text, contents: Data("not a database at all\n".utf8)))
        let queue = try DatabaseQueue(path: other)
        try await queue.write { try $0.execute(sql: "CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, ZSTREAMNAME TEXT)") }
        try queue.close()
        let t = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", text, "--out", dir + "/a.csv"])
        #expect(t.status != 0 && t.err.contains("not an SQLite database"), "\(t.err)")
        let o = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", other, "--out", dir + "/b.csv"])
        #expect(o.status != 0 && o.err.contains("ZOBJECT has no ZSTARTDATE"), "\(o.err)")
    }
}
