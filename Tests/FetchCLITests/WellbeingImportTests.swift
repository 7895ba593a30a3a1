import Foundation
import GRDB
import Testing

/// `import --from wellbeing`: Android's Digital Wellbeing database (the fixture
/// scripts/wellbeing-fixture.py writes) through `import`, `bench` and `next`; a database read as
/// evidence; and files that are not what they claim.
struct WellbeingImportTests {
    static let fixture = Fetchsched.root.appendingPathComponent("data/import/wellbeing/app_usage").path

    /// Worked by hand from the fixture's events, in Berlin's time across the change of the clocks:
    /// each unlock a `screen_on`, which also starts a new visit to the app left in front; a
    /// return after the home screen a new open; a picker in WhatsApp's task and the notification
    /// shade passed over; Gmail's notification a `notification`; the shutdown a `screen_off`, the
    /// startup nothing.
    static let expected = """
        timestamp,user,app,event,value
        2024-10-26T08:00:00.000+02:00,sam,,screen_on,
        2024-10-26T08:00:01.000+02:00,sam,com.whatsapp,open,
        2024-10-26T08:00:32.000+02:00,sam,com.whatsapp,open,
        2024-10-26T08:02:00.000+02:00,sam,com.google.android.gm,notification,
        2024-10-26T12:30:00.000+02:00,sam,,screen_on,
        2024-10-26T12:30:00.500+02:00,sam,com.whatsapp,open,
        2024-10-26T12:32:00.000+02:00,sam,com.google.android.gm,open,
        2024-10-26T23:00:00.000+02:00,sam,,screen_off,
        2024-10-27T07:00:40.000+01:00,sam,,screen_on,
        2024-10-27T07:00:41.000+01:00,sam,com.google.android.gm,open,
        2024-10-27T07:10:00.000+01:00,sam,com.android.chrome,open,

        """

    @Test func aWellbeingDatabaseBecomesTheLogWorkedByHandAndPlans() async throws {
        let dir = Fetchsched.temp()
        let out = dir + "/sam.csv"
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.fixture))
        let r = try await Fetchsched.run(["import", "--from", "wellbeing", "--user", "sam", "--time-zone", "Europe/Berlin",
                                          Self.fixture, "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.expected)
        #expect(r.err.contains("usage event DEVICE_STARTUP 1") && r.err.contains("unknown usage event type UNKNOWN_TYPE_99 1"), "\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.fixture)) == before, "the database was written to")
        #expect(try FileManager.default.contentsOfDirectory(atPath: (Self.fixture as NSString).deletingLastPathComponent) == ["app_usage"])
        let b = try await Fetchsched.run(["bench", out, "--policies", "none,android-prefetch,oracle", "--format", "csv"])
        #expect(b.status == 0 && b.out.split(separator: "\r\n").count == 4, "\(b.err)")
        let store = dir + "/sam.db"
        let i = try await Fetchsched.run(["ingest", out, "--db", store])
        #expect(i.status == 0, "\(i.err)")
        let n = try await Fetchsched.run(["next", "--db", store, "--user", "sam", "--app", "com.whatsapp", "--explain"])
        #expect(n.status == 0 && n.out.contains("com.whatsapp"), "\(n.err)\(n.out)")
    }

    /// One rule per column: a `package_id` stored as text or a real (in a column declared loosely)
    /// is refused as `_id` and `type` are, and a package whose name is NULL or a blob is said to be
    /// so, not to be missing.
    @Test(arguments: [
        ("UPDATE events SET package_id = '2' WHERE _id = 102", "_id=102: package_id is text, not an integer key"),
        ("UPDATE events SET package_id = 2.0 WHERE _id = 102", "_id=102: package_id is a real, not an integer key"),
        ("UPDATE packages SET package_name = NULL WHERE _id = 2", "package 2's package_name is NULL, not text"),
        ("UPDATE packages SET package_name = x'636f6d2e61' WHERE _id = 2", "package 2's package_name is a blob, not text"),
    ])
    func aLooselyTypedColumnIsRefusedByItsOwnRule(change: String, message: String) async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/app_usage"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: db)
        let queue = try DatabaseQueue(path: db)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE loose (_id INTEGER PRIMARY KEY, timestamp INTEGER NOT NULL, type INTEGER NOT NULL, package_id);
                INSERT INTO loose SELECT _id, timestamp, type, package_id FROM events;
                DROP TABLE events;
                ALTER TABLE loose RENAME TO events;
                """)
            try db.execute(sql: change)
        }
        try queue.close()
        let r = try await Fetchsched.run(["import", "--from", "wellbeing", "--user", "sam", "--time-zone", "Europe/Berlin", db, "--out", dir + "/o.csv"])
        #expect(r.status != 0 && r.err.contains(message), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.csv"))
    }

    /// A database whose `events` has no `task_root_package_id` (nor `instance_id`) is read
    /// without it: the picker in WhatsApp's task is then an app of its own.
    @Test func aDatabaseWithoutTaskRootsIsReadWithout() async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/app_usage"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: db)
        let queue = try DatabaseQueue(path: db)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE older (_id INTEGER PRIMARY KEY, timestamp INTEGER NOT NULL, type INTEGER NOT NULL, package_id INTEGER NOT NULL);
                INSERT INTO older SELECT _id, timestamp, type, package_id FROM events;
                DROP TABLE events;
                ALTER TABLE older RENAME TO events;
                """)
        }
        try queue.close()
        let out = dir + "/sam.csv"
        let r = try await Fetchsched.run(["import", "--from", "wellbeing", "--user", "sam", "--time-zone", "Europe/Berlin", db, "--out", out])
        #expect(r.status == 0, "\(r.err)")
        let expected = Self.expected.replacingOccurrences(of: "2024-10-26T08:02:00.000+02:00,sam,com.google.android.gm,notification,", with: """
            2024-10-26T08:01:00.000+02:00,sam,com.google.android.documentsui,open,
            2024-10-26T08:01:20.000+02:00,sam,com.whatsapp,open,
            2024-10-26T08:02:00.000+02:00,sam,com.google.android.gm,notification,
            """)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == expected)
    }

    /// A copy of the fixture in WAL mode whose last change (one package renamed) is only in its
    /// `-wal`, as a phone's is when the file is taken while the app has it open: it is read with
    /// the change, and nothing beside it is created or changed.
    @Test func aWALDatabaseIsReadWithItsWALAndNothingBesideItIsCreatedOrChanged() async throws {
        let dir = Fetchsched.temp(), out = Fetchsched.temp()
        let db = dir + "/app_usage"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: db)
        let script = """
            import os, sqlite3
            c = sqlite3.connect(\"\(db)\")
            c.execute("PRAGMA journal_mode=WAL"); c.execute("PRAGMA wal_autocheckpoint=0")
            c.execute("UPDATE packages SET package_name='com.example.walonly' WHERE package_name='com.android.chrome'")
            c.commit()
            os.remove(\"\(db)-shm\")
            os._exit(0)
            """
        let p = try Fetchsched.python(script)
        try #require(p.status == 0 && FileManager.default.fileExists(atPath: db + "-wal"), "\(p.err)")
        let before = try KnowledgeCEvidenceTests.snapshot(dir)
        let r = try await Fetchsched.run(["import", "--from", "wellbeing", "--user", "sam", "--utc-offset", "+01:00", db, "--out", out + "/s.csv"])
        #expect(r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: out + "/s.csv", encoding: .utf8).contains("com.example.walonly,open"))
        #expect(try KnowledgeCEvidenceTests.snapshot(dir) == before)
    }

    /// A database written by anyone: each wrong value is named with its event, nothing traps,
    /// nothing is written; with `--skip-invalid` it is counted and the rest read.
    @Test(arguments: [
        ("UPDATE events SET timestamp = 'yesterday' WHERE _id = 102", "events _id=102: timestamp text is not Unix milliseconds"),
        ("UPDATE events SET timestamp = 99999999999999999 WHERE _id = 102", "is not Unix milliseconds between 1970 and 2100"),
        ("UPDATE events SET type = 'resumed' WHERE _id = 102", "events _id=102: type is text, not an event type code"),
        ("UPDATE events SET package_id = 999 WHERE _id = 102", "events _id=102: package_id 999 names no package"),
        ("UPDATE events SET task_root_package_id = 999 WHERE _id = 102", "task_root_package_id 999 names no package"),
        ("UPDATE packages SET package_name = 'com.bad' || char(10) WHERE package_name = 'com.whatsapp'", "holds a control character"),
    ])
    func aWrongValueStopsAtItsEventOrIsCounted(sql: String, message: String) async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/app_usage"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: db)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false  // a file written by anyone keeps no foreign key
        let queue = try DatabaseQueue(path: db, configuration: configuration)
        try await queue.write { try $0.execute(sql: sql) }
        try queue.close()
        let args = ["import", "--from", "wellbeing", "--user", "sam", "--time-zone", "Europe/Berlin", db, "--out", dir + "/out.csv"]
        let r = try await Fetchsched.run(args)
        #expect(r.status != 0)
        #expect(r.err.contains(message), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
        let s = try await Fetchsched.run(args + ["--skip-invalid"])
        #expect(s.status == 0 && s.err.contains("skipped (--skip-invalid): "), "\(s.err)")
    }

    @Test(arguments: [
        (["--time-zone", "Europe/Berlin"], "--from wellbeing needs --user"),
        (["--user", "sam"], "--from wellbeing needs --utc-offset or --time-zone"),
    ])
    func aDatabaseWithoutItsUserOrTimeZoneIsRefused(extra: [String], message: String) async throws {
        let r = try await Fetchsched.run(["import", "--from", "wellbeing", Self.fixture, "--out", Fetchsched.temp() + "/x.csv"] + extra)
        #expect(r.status != 0 && r.err.contains(message), "\(r.err)")
    }

    /// An iPhone's knowledgeC.db, a log that is no database, and a table that lacks a column.
    @Test func aFileThatIsNoWellbeingDatabaseIsRefusedByWhatItLacks() async throws {
        let dir = Fetchsched.temp()
        let partial = dir + "/app_usage"
        let queue = try DatabaseQueue(path: partial)
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE events (_id INTEGER PRIMARY KEY, timestamp INTEGER, package_id INTEGER)")
            try db.execute(sql: "CREATE TABLE packages (_id INTEGER PRIMARY KEY, package_name TEXT)")
        }
        try queue.close()
        let sample = Fetchsched.root.appendingPathComponent("data/sample.csv").path
        for (file, message) in [(KnowledgeCImportTests.fixture, "has no events table: not a Digital Wellbeing app_usage database"),
                                (sample, "is not an SQLite database"),
                                (partial, "events has no type: not a Digital Wellbeing app_usage database this reads")] {
            let r = try await Fetchsched.run(["import", "--from", "wellbeing", "--user", "sam", "--utc-offset", "+00:00", file,
                                              "--out", dir + "/out.csv"])
            #expect(r.status != 0 && r.err.contains(message), "\(file): \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
        }
    }
}
