import FetchAPI
import FetchCore
import Testing

struct ScenarioTests {
    func parse(_ json: String) throws(ScenarioError) -> Scenario { try Scenario.parse(json: Array(json.utf8)) }

    @Test func anEmptyScenarioIsTheDocumentedDefaults() throws {
        let s = try parse("{}")
        #expect(s == .default)
        #expect(s.energyBudgetMicroJ == 864_000_000)  // 2% of 12 Wh
    }

    @Test func appsOverrideTheDefaultFieldByField() throws {
        let s = try parse(#"""
            {"apps": {"default": {"interval": "custom:2h"},
                      "com.news": {"content": "updates:45m", "profile": {"bytes": 5000}}}}
            """#)
        #expect(s.defaultApp.interval == .custom(2 * Millis.hour))
        let news = s.settings(forApp: "com.news")
        #expect(news.interval == .custom(2 * Millis.hour))
        #expect(news.content == .updates(45 * Millis.minute))
        #expect(news.profile.bytes == 5000 && news.profile.noDataBytes == 2000)
    }

    @Test func theEnergyBudgetFollowsTheBatteryPercentage() throws {
        #expect(try parse(#"{"battery":{"capacityWh":10},"budgets":{"energyPercentPerDay":3}}"#).energyBudgetMicroJ == 1_080_000_000)
        #expect(try parse(#"{"budgets":{"energyJoulesPerDay":500}}"#).energyBudgetMicroJ == 500_000_000)
    }

    @Test func adaptivesMinimumValueIsAScenarioField() throws {
        #expect(try parse("{}").minRescuesPerJoule == Scenario.default.minRescuesPerJoule)
        #expect(try parse(#"{"adaptive": {"minRescuesPerJoule": 0.1}}"#).minRescuesPerJoule == 0.1)
    }

    @Test func aBatteryCapacityAloneKeepsTheDefaultShareOfIt() throws {
        let s = try parse(#"{"battery":{"capacityWh":24}}"#)
        #expect(s.batteryWh == 24 && s.energyBudgetMicroJ == 1_728_000_000)  // 2% of 24 Wh
        #expect(try parse(#"{"battery":{"capacityWh":24},"budgets":{"energyJoulesPerDay":500}}"#).energyBudgetMicroJ == 500_000_000)
    }

    @Test(arguments: [
        (#"{"budget": {}}"#, "budget", "unknown field"),
        (#"{"apps": {"default": {"profile": {"bytez": 1}}}}"#, "apps.default.profile.bytez", "unknown field"),
        (#"{"apps": {"x": {"interval": "sometimes"}}}"#, "apps.x.interval", "expected never, minimum or custom"),
        (#"{"apps": {"x": {"content": "window:soon"}}}"#, "apps.x.content", "expected window"),
        (#"{"apps": {"default": {"profile": {"failureRate": 2}}}}"#, "apps.default.profile.failureRate", "from 0 to 1"),
        (#"{"budgets": {"cellularBytesPerDay": -1}}"#, "budgets.cellularBytesPerDay", "from 0 to"),
        // Numbers past their documented range are named, never a crash (issue 10, case 8).
        (#"{"battery":{"capacityWh":1e308}}"#, "battery.capacityWh", "to 1000"),
        (#"{"budgets":{"energyJoulesPerDay":1e300}}"#, "budgets.energyJoulesPerDay", "to 10000000"),
        (#"{"energy":{"processingWatts":1e308}}"#, "energy.processingWatts", "to 100"),
        (#"{"energy":{"wifi":{"wakeJoules":1e300}}}"#, "energy.wifi.wakeJoules", "to 1000"),
        (#"{"apps": {"default": {"profile": {"bytes": 1e18}}}}"#, "apps.default.profile.bytes", "to 10000000000"),
        (#"{"apps": {"x": {"interval": "custom:9999999999999d"}}}"#, "apps.x.interval", "up to 366d"),
        (#"{"apps": {"x": {"content": "updates:1ms"}}}"#, "apps.x.content", "at least 1m"),
        (#"{"engine": {"tick": "2d"}}"#, "engine.tick", "from 1s to 1d"),
        (#"{"pushes": {"silentPerHour": 1e9}}"#, "pushes.silentPerHour", "to 3600"),
        (#"{"apps": {"x\u001b[2J": {"bogus": 1}}}"#, "apps.x\\u{1B}[2J.bogus", "unknown field"),
        (#"{"engine": {"tick": 900}}"#, "engine.tick", "expected a string"),
        (#"{"energy": {"wifi": {"tail": "2 seconds"}}}"#, "energy.wifi.tail", "expected a duration"),
        (#"{"adaptive": {"minRescuesPerJoule": 0}}"#, "adaptive.minRescuesPerJoule", "more than 0"),
        (#"{"adaptive": {"minRescuesPerJoule": 11}}"#, "adaptive.minRescuesPerJoule", "to 10"),
    ])
    func badFieldsAreNamed(json: String, field: String, says: String) {
        do {
            _ = try parse(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.field == field)
            #expect(error.problem.contains(says), "\(error)")
        }
    }

    @Test func durationsReadAndWriteBack() {
        for (text, ms) in [("500ms", Int64(500)), ("30s", 30_000), ("15m", 900_000), ("1.5h", 5_400_000), ("2d", 172_800_000)] {
            #expect(DurationText.parse(text) == ms)
        }
        #expect(DurationText.parse("15") == nil && DurationText.parse("m") == nil && DurationText.parse("-5m") == nil)
        #expect(DurationText.parse("366d") == 366 * Millis.day && DurationText.parse("367d") == nil)
        #expect(DurationText.parse("99999999999999999999h") == nil && DurationText.parse("1e400s") == nil)
        #expect(DurationText.format(90_000) == "90s" && DurationText.format(3_600_000) == "1h")
    }
}
