import FetchImport
import Foundation
import Testing

/// AWARE's tables as people pass them around: re-exported by other tools (columns renamed and
/// reordered, times in seconds), and as an AWARE server's MySQL database dumped.
struct AwareVariantTests {
    static let csvFiles = ["applications_foreground", "screen", "battery", "network", "timezone"].map { ImportTests.fixture("aware/\($0).csv") }

    /// The AWARE fixture's screen table rewritten as a re-export: `time` in Unix seconds with a
    /// fraction, `device` for `device_id`, the columns in another order, no `_id`.
    static func reexportedScreen(in dir: String) throws -> String {
        let rows = try String(contentsOfFile: ImportTests.fixture("aware/screen.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let text = "screen_status,device,time\n" + rows.map { r in
            let millis = Int64(Double(r[1])!)
            return "\(r[3]),\(r[2]),\(millis / 1000).\(String(format: "%03d", millis % 1000))"
        }.joined(separator: "\n") + "\n"
        let path = dir + "/screen-seconds.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aReexportInSecondsWithRenamedColumnsGivesTheSameLogAsAwaresOwnExport() async throws {
        let dir = Fetchsched.temp()
        let (own, ownLog) = try await ImportTests.importing(["--from", "aware"] + Self.csvFiles)
        let files = Self.csvFiles.filter { !$0.hasSuffix("/screen.csv") } + [try Self.reexportedScreen(in: dir)]
        let (other, otherLog) = try await ImportTests.importing(["--from", "aware"] + files)
        #expect(own.status == 0 && other.status == 0, "\(other.err)")
        #expect(otherLog != nil && otherLog == ownLog)
        #expect(other.err.contains("times in Unix seconds: \(dir)/screen-seconds.csv"), "\(other.err)")
        #expect(other.err.contains("times in Unix milliseconds: ") && !own.err.contains("Unix seconds"), "\(own.err)")
    }

    /// niimpy's sample tables (data/import/aware-niimpy): `user,device,time,…` in seconds, the
    /// battery without a scale, AWARE's own battery codes for a boot (-3) and a shutdown (-1).
    /// Each device's screen turns and plugs, counted from the files apart from the importer.
    @Test func niimpysSampleTablesGiveEachDevicesScreenAndPlugChanges() async throws {
        let screen = ImportTests.fixture("aware-niimpy/screen.csv"), battery = ImportTests.fixture("aware-niimpy/battery.csv")
        let (r, log) = try await ImportTests.importing(["--from", "aware", "--time-zone", "Europe/Helsinki", screen, battery])
        #expect(r.status == 0 && r.err.contains("times in Unix seconds: \(screen), \(battery)"), "\(r.err)")
        let rows = try #require(log).split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        func count(_ device: String, _ event: String) -> Int { rows.filter { $0[1] == device && $0[3] == event }.count }
        func changes(_ file: String, on: ([Substring]) -> Bool) throws -> [String: (on: Int, off: Int)] {
            var last: [String: Bool] = [:], out: [String: (on: Int, off: Int)] = [:]
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").dropFirst()
            let sorted = lines.map { $0.split(separator: ",") }.enumerated().sorted { a, b in
                (a.element[1], Double(a.element[2])!, a.offset) < (b.element[1], Double(b.element[2])!, b.offset)
            }
            for (_, f) in sorted {
                let device = String(f[1]), now = on(f)
                if last[device] != now { out[device, default: (0, 0)].on += now ? 1 : 0; out[device, default: (0, 0)].off += now ? 0 : 1 }
                last[device] = now
            }
            return out
        }
        let screens = try changes(screen) { [1, 3].contains(Int($0[3])!) }
        // user,device,time,battery_level,battery_status,battery_health,battery_adaptor: power
        // through an adaptor, or the status charging (2) or full (5).
        let plugs = try changes(battery) { Int($0[6])! > 0 || [2, 5].contains(Int($0[4])!) }
        #expect(Set(screens.keys) == ["OWd1Uau8POix", "Cq9vueHh3zVs", "i8jmoIuoe12Mo"])
        for (device, n) in screens { #expect(count(device, "screen_on") == n.on && count(device, "screen_off") == n.off, "\(device)") }
        for (device, n) in plugs {
            // The first state is a change from nothing: an `unplugged` at the start is written too.
            #expect(count(device, "plugged") + count(device, "unplugged") == n.on + n.off, "\(device)")
        }
        #expect(rows.contains { $0[0] == "2020-01-09T02:09:29.152+02:00" && $0[1] == "OWd1Uau8POix" && $0[3] == "screen_on" })
    }

    /// A header that names a column twice, or one column by two names, leaves which counts to
    /// chance: refused; a byte-order mark and lines ended by CR alone are named as the cause.
    @Test(arguments: [
        ("timestamp,time,device_id,screen_status\n1710147600000,1710147600,d,1\n", "'timestamp' and 'time'"),
        ("time,device,device,screen_status\n1710147600,d,e,1\n", "'device' twice"),
        ("timestamp,device_id,device,screen_status\n1710147600000,d,e,1\n", "'device_id' and 'device'"),
        ("\u{FEFF}timestamp,device_id,screen_status\n1710147600000,d,1\n", "byte-order mark"),
        ("timestamp,device_id,screen_status\r1710147600000,d,1\r", "carriage return alone"),
    ])
    func anAmbiguousOrMisencodedHeaderIsRefusedNamingTheCause(text: String, cause: String) async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/screen.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["import", "--from", "aware", "--utc-offset", "+01:00", path, "--out", dir + "/out.csv"])
        #expect(r.status != 0 && r.err.contains("\(path):1:") && r.err.contains(cause), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
    }

    @Test func aFileWhoseTimesChangeUnitIsRefusedAtTheRow() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/screen.csv"
        try "time,device,screen_status\n1710136800.5,d,1\n1710136900500,d,0\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["import", "--from", "aware", "--utc-offset", "+01:00", path, "--out", dir + "/out.csv"])
        #expect(r.status != 0 && r.err.contains("\(path):3: time '1710136900500' reads as milliseconds, but the file's first timed row gave seconds"),
                "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
    }

    /// data/import/aware-mysql: the fixture's tables in a MariaDB server, dumped by mariadb-dump
    /// both ways (scripts/aware-dump-fixture.sh): the same log as the CSV files, every other
    /// table named as left out, and through bench, ingest and next.
    @Test(arguments: ["aware.sql", "aware-complete.sql"])
    func anAwareServersDumpGivesTheSameLogAsItsCSVExport(dump: String) async throws {
        let (csv, csvLog) = try await ImportTests.importing(["--from", "aware"] + Self.csvFiles)
        let path = ImportTests.fixture("aware-mysql/" + dump)
        let out = Fetchsched.temp() + "/log.csv"
        let r = try await Fetchsched.run(["import", "--from", "aware", path, "--out", out])
        #expect(csv.status == 0 && r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == csvLog)
        #expect(r.err.contains("\(path): tables left out: aware_device (1 rows), locations (2 rows)"), "\(r.err)")
        #expect(r.err.contains("times in Unix milliseconds: \(path) (timezone), \(path) (applications_foreground)"), "\(r.err)")
        try await ImportCorpusTests.benchIngestAndPlan([out], store: Fetchsched.temp() + "/s.db",
                                                        user: "4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11", app: "com.spotify.music")
    }

    static let create = "CREATE TABLE `screen` (\n  `_id` int(11) NOT NULL,\n  `timestamp` double DEFAULT 0,\n  `device_id` varchar(150),\n"
        + "  `screen_status` int(11) DEFAULT 0,\n  PRIMARY KEY (`_id`)\n) ENGINE=InnoDB;\n"
    static let zone = "INSERT INTO `timezone` (`_id`, `timestamp`, `device_id`, `timezone_id`) VALUES (1,1710104400000,'d','Europe/Berlin');\n"

    @Test(arguments: [
        (create + "INSERT INTO `screen` VALUES (1,1710136800000,'d',1),(2,1710136900000,'d',9);\n", ":10: screen_status '9' is not a whole number"),
        (create + "INSERT INTO `screen` VALUES (1,1710136800000,'d',1),\n(2,1710136900000,'d'", ":11: the dump ends inside a statement"),
        ("INSERT INTO `screen` VALUES (1,1710136800000,'d',1);\n", ":3: INSERT INTO screen names no columns, and no CREATE TABLE screen"),
        (create + "INSERT INTO `screen` VALUES (1,NOW(),'d',1);\n", ":10: a value this does not read: 'NOW' '(' ')'"),
        (create + "INSERT INTO `screen` VALUES (1,1710136800000,'d');\n", ":10: a row of screen with 3 values for 4 columns"),
        (create + "INSERT INTO `screen` VALUES (1,1710136800000,'\(String(repeating: "x", count: 70_000))',1);\n",
         ":10: a quoted value longer than 65536 bytes"),
        ("INSERT INTO `screen` (`_id`, `when`, `screen_status`) VALUES (1,2,3);\n", ":3: the columns of screen are not those of AWARE's table"),
        ("INSERT INTO `screen` (`_id`, `timestamp`, `screen_status`) VALUES (1,1710136800000,1);\n",
         ":3: the table has no device_id, device or user column"),
        ("SET NAMES utf8mb4;\nINSERT INTO `screen` (`timestamp`, `device_id`, `screen_status`) VALUES ('2024', 'd', 1) junk;\n",
         ":4: 'junk' between the rows of an INSERT"),
        // Issue 81, findings 12 and 13: forms that may hold AWARE's rows are refused, not passed over.
        (create + "INSERT INTO `screen` SET `_id` = 1, `timestamp` = 1710136800000;\n",
         ":10: INSERT … SET into screen: this reads a table's rows from INSERT … VALUES only"),
        (create + "INSERT INTO screen SELECT * FROM old_screen;\n", ":10: INSERT … SELECT into screen"),
        (create + "INSERT INTO `screen` (SELECT * FROM old_screen);\n", ":10: an INSERT without VALUES into screen"),
        (create + "INSERT INTO `screen` VALUES (1,1710136800000,0xff,1);\n", ":10: the hex literal 0xff is not UTF-8 text"),
        (create + "INSERT INTO `screen` VALUES (1,1710136800000,0b01,1);\n", ":10: a bit literal, '0b01'"),
        (create + "INSERT INTO `screen` VALUES (1,1710136800000,'d',1);\nCREATE TABLE `SCREEN` (`_id` int, `timestamp` double, "
         + "`device_id` text, `screen_status` int);\nINSERT INTO `SCREEN` VALUES (2,1710136900000,'d',0);\n",
         ":12: rows of two tables read as AWARE's screen: screen and SCREEN"),
        (create + "/* a comment\nINSERT INTO `screen` VALUES (1,1710136800000,'d',1);\n",
         ":11: a comment opened with /* on line 10 is never closed"),
        (create + "DELIMITER ;;\nINSERT INTO `screen` VALUES (1,1710136800000,'d',1);\n",
         ":11: the DELIMITER ;; block of line 10 is never ended by DELIMITER ;"),
    ])
    func aBadDumpStopsAtItsLineAndWritesNothing(text: String, message: String) async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/dump.sql", out = dir + "/out.csv"
        try ("-- MariaDB dump\n" + Self.zone + text).write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["import", "--from", "aware", path, "--out", out])
        #expect(r.status == 1 && r.err.contains(path + message), "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["dump.sql"], "nothing written beside it")
    }

    @Test func aSkippedTablesLongValuesAndAnyStatementsAreReadPast() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/dump.sql"
        let text = "-- MariaDB dump\n/*!40101 SET NAMES utf8mb4 */;\n" + Self.zone + Self.create
            + "INSERT INTO `esms` VALUES (1,'\(String(repeating: "y", count: 200_000 / 2))','a;b),(c','x\\'y\\\\');\n"
            + "LOCK TABLES `screen` WRITE;\nINSERT INTO `screen` VALUES (1,1710136800000,'d',1),\n(2,1710137800000,'d',0);\nUNLOCK TABLES;\n"
            + "# a comment\nINSERT INTO `screen` VALUES (3,1710138800000,'d',9);\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (r, log) = try await ImportTests.importing(["--from", "aware", "--skip-invalid", path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("tables left out: esms (1 rows)") && r.err.contains("skipped (--skip-invalid): bad screen_status 1"), "\(r.err)")
        #expect(log == "timestamp,user,app,event,value\n2024-03-11T07:00:00.000+01:00,d,,screen_on,\n2024-03-11T07:16:40.000+01:00,d,,screen_off,\n")
    }

    /// Issue 81, finding 12: what mysqldump and MariaDB's dump write beside plain rows is read as
    /// a server reads it (hex literals, executable comments, a name in upper case), and what
    /// could hold rows of another table and is not read is named.
    @Test func hexLiteralsExecutableCommentsAndUpperCaseNamesAreReadAndWhatIsPassedOverIsNamed() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/dump.sql"
        let text = "-- MySQL dump 10.13\n/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n" + Self.zone
            + "CREATE TABLE `SCREEN` (`_id` int, `timestamp` double, `device_id` varbinary(9), `screen_status` int);\n"
            + "/*!40000 ALTER TABLE `SCREEN` DISABLE KEYS */;\n"
            + "/*!40000 INSERT INTO `SCREEN` VALUES (1,1710136800000,0x64,1)*/;\n"
            + "/*M!100101 INSERT INTO `SCREEN` VALUES (2,1710137800000,X'64',0) */;\n"
            + "INSERT INTO `SCREEN` VALUES (3,1710138800000,_binary 0x64,1);\n/*!40000 ALTER TABLE `SCREEN` ENABLE KEYS*/;\n"
            + "INSERT INTO `archive` SELECT * FROM `SCREEN`;\n"
            + "DELIMITER ;;\n/*!50003 CREATE*/ /*!50003 TRIGGER t AFTER INSERT ON `SCREEN` FOR EACH ROW BEGIN\n"
            + "INSERT INTO `SCREEN` VALUES (9,1710139800000,'x',0); END */;;\nDELIMITER ;\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (r, log) = try await ImportTests.importing(["--from", "aware", path])
        #expect(r.status == 0, "\(r.err)")
        #expect(log == "timestamp,user,app,event,value\n2024-03-11T07:00:00.000+01:00,d,,screen_on,\n"
                + "2024-03-11T07:16:40.000+01:00,d,,screen_off,\n2024-03-11T07:33:20.000+01:00,d,,screen_on,\n", "\(log ?? "")")
        #expect(r.err.contains("statements passed over: INSERT … SELECT into archive (1), "
                               + "a DELIMITER ;; block (triggers or routines), lines 11–14 (1)"), "\(r.err)")
        #expect(r.err.contains("times in Unix milliseconds: \(path) (timezone), \(path) (screen)"), "\(r.err)")
    }

    @Test func aDumpOfManyTablesNamesFiftyAndCountsTheRestInMemoryThatDoesNotGrowWithThem() async throws {
        let dir = Fetchsched.temp()
        let path = dir + "/dump.sql"
        // 1,200 other tables, each with a CREATE TABLE of many columns and one row, then AWARE's screen.
        var text = "-- MariaDB dump\n" + Self.zone
        let columns = (0..<2_000).map { "  `c\($0)` int(11)" }.joined(separator: ",\n")
        for t in 0..<1_200 {
            text += "CREATE TABLE `t\(String(format: "%04d", t))` (\n\(t < 3 ? columns : "  `c` int(11)")\n) ENGINE=InnoDB;\n"
            text += "INSERT INTO `t\(String(format: "%04d", t))` VALUES (1);\n"
        }
        text += Self.create + "INSERT INTO `screen` VALUES (1,1710136800000,'d',1);\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (r, log) = try await ImportTests.importing(["--from", "aware", path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("tables left out: t0000 (1 rows), t0001 (1 rows)"), "\(r.err)")
        #expect(r.err.contains("t0049 (1 rows), and at least 951 other tables (1150 rows)") && !r.err.contains("t0050"), "\(r.err)")
        #expect(log?.hasSuffix("2024-03-11T07:00:00.000+01:00,d,,screen_on,\n") == true, "\(log ?? "")")
        var dump = AwareDump()
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            try dump.feed(line, number: i + 1)
        }
        try dump.finish()
        #expect(dump.skipped.count == AwareDump.maxNamedSkipped && dump.skippedUnnamed == 1_200 - AwareDump.maxNamedSkipped)
    }
}
