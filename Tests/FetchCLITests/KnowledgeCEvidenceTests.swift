import Foundation
import GRDB
import Testing

/// Issue 64: a knowledgeC.db is evidence. Nothing beside it is created or changed, a WAL's or a
/// hot journal's content is read as SQLite would, a file built to cost gigabytes is refused at
/// once, and each value of the wrong kind is named with its column and record.
struct KnowledgeCEvidenceTests {
    static let fixture = KnowledgeCImportTests.fixture

    /// What a folder holds, each file's name with its bytes and modification time.
    static func snapshot(_ dir: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/" + name)
            let bytes = FileManager.default.contents(atPath: dir + "/" + name) ?? Data()
            out[name] = "\(bytes.hashValue) \(attributes[.modificationDate] as? Date ?? .distantPast)"
        }
        return out
    }

    /// A copy of the fixture in WAL mode whose last change (one app renamed) is only in its `-wal`,
    /// as a phone's is when the file is taken while iOS has it open: no `-shm` beside it.
    static func walDatabase(in dir: String) throws -> String {
        let db = dir + "/knowledgeC.db"
        try FileManager.default.copyItem(atPath: fixture, toPath: db)
        let script = """
            import os, sqlite3
            c = sqlite3.connect(\"\(db)\")
            c.execute("PRAGMA journal_mode=WAL"); c.execute("PRAGMA wal_autocheckpoint=0")
            c.execute("UPDATE ZOBJECT SET ZVALUESTRING='com.example.walonly' WHERE ZVALUESTRING='net.whatsapp.WhatsApp'")
            c.commit()
            os.remove(\"\(db)-shm\")
            os._exit(0)
            """
        let r = try Fetchsched.python(script)
        try #require(r.status == 0, "\(r.err)")
        try #require(FileManager.default.fileExists(atPath: db + "-wal"))
        return db
    }

    @Test func aWALDatabaseIsReadWithItsWALAndNothingBesideItIsCreatedOrChanged() async throws {
        let dir = Fetchsched.temp(), out = Fetchsched.temp()
        let db = try Self.walDatabase(in: dir)
        let before = try Self.snapshot(dir)
        let r = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", out + "/kim.csv"])
        #expect(r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: out + "/kim.csv", encoding: .utf8).contains("com.example.walonly"))
        #expect(try Self.snapshot(dir) == before)
    }

    /// As an unprivileged user, from a folder that user cannot write: read all the same.
    @Test(.enabled(if: getuid() == 0))
    func aWALDatabaseOnReadOnlyMediaIsReadByAnUnprivilegedUser() async throws {
        let dir = Fetchsched.temp(), out = Fetchsched.temp()
        let db = try Self.walDatabase(in: dir)
        #expect(chmod(dir, 0o555) == 0 && chmod(out, 0o777) == 0)
        defer { chmod(dir, 0o755) }
        let before = try Self.snapshot(dir)
        let binary = Fetchsched.binary.path
        let command = "exec su nobody -s /bin/sh -c \"'\(binary)' import --from knowledgec --user kim '\(db)' --out '\(out)/kim.csv'\""
        let r = try Fetchsched.shellBlocking(command)
        #expect(r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: out + "/kim.csv", encoding: .utf8).contains("com.example.walonly"))
        #expect(try Self.snapshot(dir) == before)
    }

    /// A hot journal beside the file (a write cut off mid-transaction) is rolled back in the copy:
    /// the import reads the last committed state, and the journal stays where it was.
    @Test func aHotJournalIsRolledBackInTheCopyOnly() async throws {
        let dir = Fetchsched.temp(), out = Fetchsched.temp()
        let db = dir + "/knowledgeC.db"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: db)
        let script = """
            import os, sqlite3
            c = sqlite3.connect(\"\(db)\", isolation_level=None)
            c.execute("PRAGMA journal_mode=DELETE"); c.execute("PRAGMA cache_size=1")
            c.execute("BEGIN")
            c.execute("UPDATE ZOBJECT SET ZVALUESTRING='com.example.uncommitted'")
            c.execute("CREATE TABLE filler(x)"); c.execute("INSERT INTO filler SELECT randomblob(4000) FROM ZOBJECT")
            os._exit(0)
            """
        let w = try Fetchsched.python(script)
        try #require(w.status == 0, "\(w.err)")
        let before = try Self.snapshot(dir)
        let r = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", out + "/kim.csv"])
        #expect(r.status == 0, "\(r.err)")
        let log = try String(contentsOfFile: out + "/kim.csv", encoding: .utf8)
        #expect(!log.contains("uncommitted") && log.contains("com.atebits.Tweetie2"), "\(log)")
        #expect(try Self.snapshot(dir) == before)
    }

    /// A file built to compute values: refused at once by what it is, not after gigabytes.
    @Test(arguments: [
        ("ZVALUESTRING TEXT GENERATED ALWAYS AS (printf('%.*c', 800000000, 'x')) VIRTUAL", "generated column"),
        ("ZVALUESTRING TEXT", "larger than 65536 bytes"),
    ])
    func aDatabaseBuiltToCostGigabytesIsRefusedAtOnce(column: String, message: String) async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/knowledgeC.db"
        let queue = try DatabaseQueue(path: db)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, ZSTREAMNAME TEXT, ZSTARTDATE REAL, ZENDDATE REAL,
                    ZSECONDSFROMGMT INTEGER, ZVALUEINTEGER INTEGER, ZVALUEDOUBLE REAL, \(column));
                INSERT INTO ZOBJECT (Z_PK, ZSTREAMNAME, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT)
                    VALUES (1, '/app/inFocus', 731836800, 731836900, 3600);
                """)
            if !column.contains("GENERATED") {
                try db.execute(sql: "UPDATE ZOBJECT SET ZVALUESTRING = printf('%.*c', 100000, 'x')")
            }
        }
        try queue.close()
        let r = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", dir + "/out.csv"], limit: 30)
        #expect(r.status == 1 && r.err.contains(message), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
    }

    /// Values of the wrong kind for their column: refused with the column and the record, or
    /// counted with --skip-invalid; never read as a default (UTC, NaN, a key of 0).
    @Test(arguments: [
        ("ZSECONDSFROMGMT", "NULL", "/app/inFocus", "ZSECONDSFROMGMT is NULL, not whole seconds"),
        ("ZSECONDSFROMGMT", "'+01:00'", "/app/inFocus", "ZSECONDSFROMGMT is text, not whole seconds"),
        ("ZSECONDSFROMGMT", "3600.5", "/app/inFocus", "ZSECONDSFROMGMT 3600.5 is not whole seconds"),
        ("ZSTARTDATE", "NULL", "/app/inFocus", "ZSTARTDATE is NULL, not a number"),
        ("ZSTARTDATE", "'yesterday'", "/app/inFocus", "ZSTARTDATE is text, not a number"),
        ("ZVALUESTRING", "X'00'", "/app/inFocus", "ZVALUESTRING is a blob, not text"),
        ("ZVALUEINTEGER", "'one'", "/device/isLocked", "ZVALUEINTEGER is text, not an integer"),
    ])
    func aValueOfTheWrongKindIsNamedWithItsColumnAndRecord(column: String, value: String, stream: String, message: String) async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/knowledgeC.db"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: db)
        let queue = try DatabaseQueue(path: db)
        let sql = "UPDATE ZOBJECT SET \(column) = \(value) WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZOBJECT WHERE ZSTREAMNAME = ?)"
        try await queue.write { try $0.execute(sql: sql, arguments: [stream]) }
        try queue.close()
        let r = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", dir + "/out.csv"])
        #expect(r.status == 1 && r.err.contains("ZOBJECT Z_PK=") && r.err.contains(message), "\(r.err)")
        let s = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", dir + "/out.csv", "--skip-invalid"])
        #expect(s.status == 0 && s.err.contains("bad value 1"), "\(s.err)")
    }

    @Test func aRecordWithoutAKeyIsNamedAsSuch() async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/knowledgeC.db"
        let queue = try DatabaseQueue(path: db)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE ZOBJECT (Z_PK INTEGER, ZSTREAMNAME TEXT, ZSTARTDATE REAL, ZENDDATE REAL, ZSECONDSFROMGMT INTEGER,
                    ZVALUESTRING TEXT, ZVALUEINTEGER INTEGER, ZVALUEDOUBLE REAL);
                INSERT INTO ZOBJECT VALUES (NULL, '/device/isLocked', 731836800, 731836900, 3600, NULL, 0, NULL);
                """)
        }
        try queue.close()
        let r = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", dir + "/out.csv"])
        #expect(r.status == 1 && r.err.contains("a record whose Z_PK is not an integer") && !r.err.contains("Z_PK=0"), "\(r.err)")
    }

    /// A database another process holds locked is read all the same (the copy takes no lock);
    /// a file that is not SQLite is said to be so, and one SQLite cannot open says SQLite's reason.
    @Test func aLockedDatabaseIsReadAndABrokenOneGivesSQLitesReason() async throws {
        let dir = Fetchsched.temp()
        let db = dir + "/knowledgeC.db"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: db)
        // Another process holds the database locked (BEGIN EXCLUSIVE) until its input closes; it
        // says it holds the lock through a FIFO, and the wait for that is bounded.
        let ready = dir + "/ready"
        try #require(mkfifo(ready, 0o600) == 0)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN EXCLUSIVE"); c.execute("UPDATE ZOBJECT SET ZVALUESTRING = ZVALUESTRING")
            open(sys.argv[2], "w").write("locked")
            sys.stdin.read()
            """, db, ready]
        let input = Pipe()
        holder.standardInput = input
        try holder.run()
        let fd = open(ready, O_RDONLY | O_NONBLOCK)
        defer { close(fd) }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 30_000) == 1)
        let r = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", dir + "/out.csv"])
        #expect(r.status == 0, "\(r.err)")
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        // A page of zeros where the schema should be: SQLite's own word, not "not an SQLite database".
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        bytes.replaceSubrange(100..<4096, with: Data(count: 3996))
        try bytes.write(to: URL(fileURLWithPath: db))
        let b = try await Fetchsched.run(["import", "--from", "knowledgec", "--user", "kim", db, "--out", dir + "/out.csv"])
        #expect(b.status == 1 && !b.err.contains("not an SQLite database"), "\(b.err)")
    }
}
