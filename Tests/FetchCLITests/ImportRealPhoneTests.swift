import Foundation
import Testing

/// Issue 36: what real phones' files hold that the fixtures did not, each as its device writes it.
struct ImportRealPhoneTests {
    static func importing(_ source: String, _ files: [String: String],
                          _ extra: [String] = []) async throws -> (result: Fetchsched.Result, log: String?) {
        let dir = Fetchsched.temp()
        var paths: [String] = []
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let path = dir + "/" + name
            try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
            paths.append(path)
        }
        let out = dir + "/log.csv"
        let user = source == "usagestats" && !extra.contains("--user") ? ["--user", "ann"] : []
        let offset = extra.contains("--time-zone") ? [] : ["--utc-offset", "+00:00"]
        let r = try await Fetchsched.run(["import", "--from", source, "--out", out] + user + offset + extra + paths)
        return (r, try? String(contentsOfFile: out, encoding: .utf8))
    }

    /// The log's rows after its header, without the offset's noise: `HH:MM:SS user app event value`.
    static func rows(_ log: String?) -> [String] {
        (log ?? "").split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            return ([String(f[0].dropFirst(11).prefix(8))] + f.dropFirst().map(String.init)).joined(separator: " ")
        }
    }

    static func dumpLine(_ time: String, _ type: String, _ package: String, root: String? = nil) -> String {
        "    time=\"2024-03-11 \(time)\" type=\(type) package=\(package) class=\(package).Main"
            + (root.map { " instanceId=1 taskRootPackage=\($0) taskRootClass=\($0).Main" } ?? "") + " flags=0x0\n"
    }

    @Test func eventsOfOneInstantKeepTheDumpsOrderSoNoOpenIsInventedOrMerged() async throws {
        // zeta stays in front at 08:00:00 (one of its own screens), then alpha comes to the
        // front in the same second; zeta comes back at 08:05. Ordered by name, zeta would seem
        // to come back at 08:00 after alpha, and its return at 08:05 would be merged into that.
        let dump = Self.dumpLine("07:59:00", "ACTIVITY_RESUMED", "com.zeta") + Self.dumpLine("08:00:00", "ACTIVITY_RESUMED", "com.zeta")
            + Self.dumpLine("08:00:00", "ACTIVITY_RESUMED", "com.alpha") + Self.dumpLine("08:05:00", "ACTIVITY_RESUMED", "com.zeta")
        let (r, log) = try await Self.importing("usagestats", ["dump.txt": dump])
        #expect(r.status == 0, "\(r.err)")
        #expect(Self.rows(log) == ["07:59:00 ann com.zeta open ", "08:00:00 ann com.alpha open ", "08:05:00 ann com.zeta open "])
    }

    @Test func equalEventsOfOneMinuteAreEventsButASectionPrintedAgainIsARepeat() async throws {
        // Before Android 10 dumps print minutes: back to the launcher and into the app again in
        // the same minute is a second open. The same run of events printed again in another
        // section of the dump, or the file given twice, adds nothing.
        let minute = ["ACTIVITY_RESUMED com.launcher3", "ACTIVITY_RESUMED com.chat", "ACTIVITY_RESUMED com.launcher3", "ACTIVITY_RESUMED com.chat"]
        let block = minute.map { item in
            let f = item.split(separator: " ")
            return Self.dumpLine("21:18:00", String(f[0]), String(f[1]))
        }.joined()
        let (r, log) = try await Self.importing("usagestats",
                ["dump.txt": "  In-memory daily stats\n" + block + "  In-memory weekly stats\n" + block])
        #expect(r.status == 0, "\(r.err)")
        #expect(Self.rows(log) == ["21:18:00 ann com.chat open ", "21:18:00 ann com.chat open "])
        #expect(r.err.contains("duplicate row 4"), "\(r.err)")
        let (t, twice) = try await Self.importing("usagestats", ["a.txt": block, "b.txt": block])
        #expect(t.status == 0 && twice == log, "\(t.err)")
    }

    @Test func aPickerShownInsideAnAppIsThatAppsScreenNotAnOpenOfItsOwn() async throws {
        let dump = Self.dumpLine("09:00:00", "ACTIVITY_RESUMED", "com.chat", root: "com.chat")
            + Self.dumpLine("09:01:00", "ACTIVITY_RESUMED", "com.google.android.photopicker", root: "com.chat")
            + Self.dumpLine("09:01:30", "ACTIVITY_RESUMED", "com.chat", root: "com.chat")
            + Self.dumpLine("09:02:00", "ACTIVITY_RESUMED", "com.android.intentresolver", root: "com.chat")
            + Self.dumpLine("09:03:00", "ACTIVITY_RESUMED", "com.video", root: "com.video")
        let (r, log) = try await Self.importing("usagestats", ["dump.txt": dump])
        #expect(r.status == 0, "\(r.err)")
        #expect(Self.rows(log) == ["09:00:00 ann com.chat open ", "09:03:00 ann com.video open "])
    }

    @Test func eventTypesNewerThanTheReaderAreCountedAndPassedOverWithoutSkipInvalid() async throws {
        let dump = Self.dumpLine("10:00:00", "ACTIVITY_RESUMED", "com.chat") + Self.dumpLine("10:00:01", "UNKNOWN_TYPE_32", "com.chat")
            + Self.dumpLine("10:00:02", "UNKNOWN_TYPE_32", "android") + Self.dumpLine("10:00:03", "APP_PINNED_NEW", "com.chat")
        let (r, log) = try await Self.importing("usagestats", ["dump.txt": dump])
        #expect(r.status == 0, "\(r.err)")
        #expect(Self.rows(log) == ["10:00:00 ann com.chat open "])
        #expect(r.err.contains("unknown usage event type UNKNOWN_TYPE_32 2"), "\(r.err)")
        #expect(r.err.contains("unknown usage event type APP_PINNED_NEW 1"), "\(r.err)")
        let export = "timestamp,package,event_type\n1710151200000,com.chat,1\n1710151201000,com.chat,34\n"
        let (e, elog) = try await Self.importing("usagestats", ["export.csv": export])
        #expect(e.status == 0 && Self.rows(elog).count == 1 && e.err.contains("UNKNOWN_TYPE_34 1"), "\(e.err)")
    }

    @Test func profilesOfOneDumpAreKeptApartOrChosen() async throws {
        let dump = "user=0 \n  Last 24 hour events\n" + Self.dumpLine("11:00:00", "ACTIVITY_RESUMED", "com.chat")
            + "user=10 \n  Last 24 hour events\n" + Self.dumpLine("11:05:00", "ACTIVITY_RESUMED", "com.work.mail")
        let (r, log) = try await Self.importing("usagestats", ["dump.txt": dump])
        #expect(r.status == 0, "\(r.err)")
        #expect(Self.rows(log) == ["11:00:00 ann com.chat open ", "11:05:00 ann-10 com.work.mail open "])
        let (w, work) = try await Self.importing("usagestats", ["dump.txt": dump], ["--profile", "10"])
        #expect(w.status == 0, "\(w.err)")
        #expect(Self.rows(work) == ["11:05:00 ann com.work.mail open "])
        #expect(w.err.contains("events of another profile than --profile 10 1"), "\(w.err)")
    }

    @Test(arguments: ["CET", "GMT", "US/Eastern", "Europe/Berlin", "UTC"])
    func everyNameOfAZoneIsAccepted(zone: String) async throws {
        let dump = Self.dumpLine("12:00:00", "ACTIVITY_RESUMED", "com.chat")
        let (r, log) = try await Self.importing("usagestats", ["dump.txt": dump], ["--time-zone", zone])
        #expect(r.status == 0, "\(r.err)")
        #expect(Self.rows(log) == ["12:00:00 ann com.chat open "])
    }

    @Test func skipInvalidWithNothingLeftSaysWhatWasSkipped() async throws {
        let localized = "    time=\"03/09/2017 21:18\" type=MOVE_TO_FOREGROUND package=com.chat\n"
        let (r, _) = try await Self.importing("usagestats", ["dump.txt": localized], ["--skip-invalid"])
        #expect(r.status != 0)
        #expect(r.err.contains("no usage events found") && r.err.contains("bad time 1"), "\(r.err)")
        let (s, _) = try await Self.importing("usagestats", ["dump.txt": localized])
        #expect(s.err.contains(":1:") && s.err.contains("give --date-order dmy or mdy"), "\(s.err)")
        #expect(s.err.contains("use --skip-invalid to count and skip"), "\(s.err)")
    }

    @Test func aDumpInThePhonesLocaleReadsWithItsDateOrder() async throws {
        // Android 7, a phone set to Portuguese: day first, no seconds, MOVE_TO_FOREGROUND.
        let dump = "    time=\"03/09/2017 21:18\" type=MOVE_TO_FOREGROUND package=com.chat class=com.chat.Main\n"
            + "    time=\"23/09/2017 08:02\" type=MOVE_TO_FOREGROUND package=com.news class=com.news.Main\n"
        let (r, log) = try await Self.importing("usagestats", ["dump.txt": dump], ["--date-order", "dmy"])
        #expect(r.status == 0, "\(r.err)")
        #expect(log?.contains("2017-09-03T21:18:00.000+00:00,ann,com.chat,open,") == true, "\(log ?? "")")
        #expect(log?.contains("2017-09-23T08:02:00.000+00:00,ann,com.news,open,") == true, "\(log ?? "")")
    }
}

/// Issue 36: AWARE exports from both platforms, as their clients and exports write them.
struct ImportAwareRealTests {
    static let screenHeader = "_id,timestamp,device_id,screen_status\n"
    static let batteryHeader = "_id,timestamp,device_id,battery_status,battery_level,battery_scale,battery_adaptor\n"

    @Test func iOSLockAndUnlockAreTheScreenEventsAndAndroidsUnlockAfterScreenOnIsARepeat() async throws {
        // iOS writes only 2 (locked) and 3 (unlocked); Android 1 (on), 3 (unlocked), 2, 0 (off).
        let ios = Self.screenHeader + "1,1710147600000,iphone,3\n2,1710147900000,iphone,2\n"
        let android = Self.screenHeader + "1,1710147600000,pixel,1\n2,1710147603000,pixel,3\n3,1710147900000,pixel,2\n4,1710147901000,pixel,0\n"
        for (name, text, device) in [("ios", ios, "iphone"), ("android", android, "pixel")] {
            let (r, log) = try await ImportRealPhoneTests.importing("aware", ["screen.csv": text])
            #expect(r.status == 0, "\(r.err)")
            #expect(ImportRealPhoneTests.rows(log) == ["09:00:00 \(device)  screen_on ", "09:05:00 \(device)  screen_off "], "\(name)")
        }
    }

    /// AWARE on iOS writes no adaptor (0) and the charging state in Android's codes (2 charging,
    /// 5 full, 4 unplugged); exports through pandas or R write whole numbers as `3.0`, as in the
    /// AWARE test data of the RAPIDS pipeline. Both were refused or lost before.
    @Test func anIPhonesChargingComesFromItsStatusAndNumbersMayCarryAZeroFraction() async throws {
        let header = "timestamp,device_id,battery_status,battery_level,battery_scale,battery_voltage,battery_temperature,battery_adaptor,"
            + "battery_health,battery_technology\n"
        let rows = ["1710147600000,iphone,4.0,80.0,100.0,0.0,0.0,0.0,0.0,", "1710151200000,iphone,2.0,79.0,100.0,0.0,0.0,0.0,0.0,",
                    "1710154800000,iphone,5.0,100.0,100.0,0.0,0.0,0.0,0.0,", "1710158400000,iphone,4.0,99.0,100.0,0.0,0.0,0.0,0.0,"]
        let (r, log) = try await ImportRealPhoneTests.importing("aware", ["battery.csv": header + rows.joined(separator: "\n") + "\n"])
        #expect(r.status == 0, "\(r.err)")
        #expect(ImportRealPhoneTests.rows(log).filter { !$0.contains("battery") }
                == ["09:00:00 iphone  unplugged ", "10:00:00 iphone  plugged ", "12:00:00 iphone  unplugged "])
    }

    @Test func stateRowsOutOfTimeOrderGiveTheSameLogAsInOrder() async throws {
        let rows = ["1,1710147600000,dev,3,50,100,0", "2,1710151200000,dev,2,60,100,1", "3,1710154800000,dev,3,90,100,0"]
        func table(_ rows: [String]) -> [String: String] { ["battery.csv": Self.batteryHeader + rows.joined(separator: "\n") + "\n"] }
        let (a, inOrder) = try await ImportRealPhoneTests.importing("aware", table(rows))
        let (b, shuffled) = try await ImportRealPhoneTests.importing("aware", table(rows.reversed()))
        #expect(a.status == 0 && b.status == 0, "\(a.err) \(b.err)")
        #expect(inOrder == shuffled)
        #expect(ImportRealPhoneTests.rows(inOrder).count == 6)  // plugged or not, and the level, at each row
    }

    @Test func backslashEscapedQuotesAsAwaresExportsWriteThemAreRead() async throws {
        let header = "_id,timestamp,device_id,package_name,application_name,is_system_app\n"
        let row = "1,1710147600000,dev,com.chat,\"Chat \\\"Pro\\\", the app\",0\n"
        let (r, log) = try await ImportRealPhoneTests.importing("aware", ["applications_foreground.csv": header + row])
        #expect(r.status == 0, "\(r.err)")
        #expect(ImportRealPhoneTests.rows(log) == ["09:00:00 dev com.chat open "])
    }

    @Test func theTzcodeLayoutOfTheTimeZoneTableGivesTheOffset() async throws {
        let zones = "device_id,tzcode,timestamp\ndev,Europe/Helsinki,1710100000000\n"
        let screen = Self.screenHeader + "1,1710147600000,dev,1\n"
        let dir = Fetchsched.temp()
        try #require(FileManager.default.createFile(atPath: dir + "/tz.csv", contents: Data(zones.utf8)))
        try #require(FileManager.default.createFile(atPath: dir + "/screen.csv", contents: Data(screen.utf8)))
        let r = try await Fetchsched.run(["import", "--from", "aware", "--out", dir + "/log.csv", dir + "/screen.csv", dir + "/tz.csv"])
        #expect(r.status == 0, "\(r.err)")
        let log = try? String(contentsOfFile: dir + "/log.csv", encoding: .utf8)
        #expect(log?.contains("2024-03-11T11:00:00.000+02:00,dev,,screen_on,") == true, "\(log ?? "")")
    }

    /// RAPIDS' `multiple_timezones.csv` starts each device at timestamp 0, the rest in
    /// milliseconds: a zero is no evidence of a unit, and the zone holds from the start.
    @Test func aTimeZoneTableWhoseFirstTimeIsZeroTakesItsUnitFromTheNextRow() async throws {
        let zones = "device_id,tzcode,timestamp\ndev,Europe/Helsinki,0\ndev,Europe/Berlin,1710200000000\n"
        let screen = Self.screenHeader + "1,1710147600000,dev,1\n2,1710237600000,dev,0\n"
        let dir = Fetchsched.temp()
        try #require(FileManager.default.createFile(atPath: dir + "/tz.csv", contents: Data(zones.utf8)))
        try #require(FileManager.default.createFile(atPath: dir + "/screen.csv", contents: Data(screen.utf8)))
        let r = try await Fetchsched.run(["import", "--from", "aware", "--out", dir + "/log.csv", dir + "/screen.csv", dir + "/tz.csv"])
        #expect(r.status == 0, "\(r.err)")
        let log = try? String(contentsOfFile: dir + "/log.csv", encoding: .utf8)
        #expect(log?.contains("2024-03-11T11:00:00.000+02:00,dev,,screen_on,") == true, "\(log ?? "")")
        #expect(log?.contains("2024-03-12T11:00:00.000+01:00,dev,,screen_off,") == true, "\(log ?? "")")
    }

    /// AWARE's notifications table, in its client's columns: each row a `notification` of its package,
    /// beside the opens of the foreground table; a row with no package is refused by its line.
    @Test func awaresNotificationsAreNotificationsOfTheirApps() async throws {
        let header = "_id,timestamp,device_id,package_name,application_name,text,sound,vibrate,defaults,flags\n"
        let notes = header + "1,1710147600000,dev,com.chat,Chat,abc,,,-1,16\n2,1710147660000,dev,com.mail,Mail,def,x,,-1,16\n"
        let apps = "_id,timestamp,device_id,package_name,application_name,is_system_app\n1,1710147630000,dev,com.chat,Chat,0\n"
        let (r, log) = try await ImportRealPhoneTests.importing("aware", ["apps.csv": apps, "notes.csv": notes], ["--utc-offset", "+01:00"])
        #expect(r.status == 0, "\(r.err)")
        #expect(log == """
            timestamp,user,app,event,value
            2024-03-11T10:00:00.000+01:00,dev,com.chat,notification,
            2024-03-11T10:00:30.000+01:00,dev,com.chat,open,
            2024-03-11T10:01:00.000+01:00,dev,com.mail,notification,

            """, "\(log ?? "")")
        let bad = header + "1,1710147600000,dev,,Chat,abc,,,-1,16\n"
        let (b, _) = try await ImportRealPhoneTests.importing("aware", ["notes.csv": bad], ["--utc-offset", "+01:00"])
        #expect(b.status != 0 && b.err.contains("notes.csv:2"), "\(b.err)")
    }

    @Test func anUnknownTableIsRefusedByNameEvenWhenSkippingRows() async throws {
        let notes = "_id,timestamp,device_id,package_name,text\n1,1710147600000,dev,com.chat,hello\n"
        let screen = Self.screenHeader + "1,1710147600000,dev,1\n"
        let (r, log) = try await ImportRealPhoneTests.importing("aware", ["a-screen.csv": screen, "b-notifications.csv": notes], ["--skip-invalid"])
        #expect(r.status != 0)
        #expect(r.err.contains("b-notifications.csv:1: not the header of an AWARE table"), "\(r.err)")
        #expect(log == nil)
    }
}
