import FetchCore
import FetchTesting
import Testing

/// A long silence between two log events costs the engine at most a fortnight of moments,
/// whatever its length; shorter ones are simulated in full.
struct SilenceTests {
    /// Two opens `days` apart under `fixed:1h` with budgets that never bind.
    func fetches(silenceDays: Int) -> Int {
        var log = LogBuilder()
        log.open("news", at: "08:00")
        log.open("news", at: "08:00", plusDays: silenceDays)
        var scenario = Scenario.default
        scenario.energyBudgetMicroJ = 10_000_000_000_000
        return log.replay(PolicySpec.parse("fixed:1h")!, scenario: scenario).total.fetches
    }

    @Test(arguments: [1, 6, 13, 14])
    func aSilenceOfUpToTwoWeeksIsSimulatedInFull(days: Int) {
        // One fetch an hour, from the first open's hour to the second's.
        #expect(fetches(silenceDays: days) == days * 24)
    }

    @Test(arguments: [15, 60, 365, 40_000])
    func aLongerSilenceRunsOnlyItsFirstAndLastWeek(days: Int) {
        // A week after the first open, then the week before the second (the hour of the
        // resumption itself included).
        #expect(fetches(silenceDays: days) == 14 * 24 + 1)
    }

    /// Issue 36: J/user-day divided the same energy by 22 days under `fixed:60m` and 8 under
    /// `oracle` for one user. A user's days are the days of their log events, under any policy.
    @Test(arguments: [3, 10, 40])
    func aUsersDaysAreTheDaysOfTheirEventsUnderEveryPolicy(silenceDays: Int) {
        var log = LogBuilder()
        for d in [0, 1, silenceDays + 1] { log.open("news", at: "08:00", plusDays: d); log.open("news", at: "09:30", plusDays: d) }
        var scenario = Scenario.default
        scenario.energyBudgetMicroJ = 10_000_000_000_000
        for name in ["none", "fixed:1h", "adaptive", "oracle"] {
            let result = log.replay(PolicySpec.parse(name)!, scenario: scenario)
            #expect(result.perUser.map(\.days) == [3], "\(name)")
            #expect(result.perDay.reduce(0) { $0 + $1.users } == 3, "\(name)")
            if name == "fixed:1h" { #expect(result.perDay.count > 3) }  // its silent days' fetches are still reported
        }
    }

    @Test func aPlanRightAfterALongSilenceIsTheSameLiveOrRebuilt() throws {
        var log = LogBuilder()
        for d in 0..<4 { log.open("news", at: "08:00", plusDays: d); log.open("news", at: "08:05", plusDays: d) }
        for d in 400..<404 { log.open("news", at: "08:00", plusDays: d); log.open("news", at: "08:05", plusDays: d) }
        let planner = FetchPlanner(scenario: .default, seed: 1)
        var all = ArraySource(events: log.events, users: log.users, apps: log.apps)
        let rebuilt = try planner.session(&all, user: "alice")
        let live = PlanningSession(planner: planner, user: "alice", apps: log.apps)
        for (i, e) in log.events.enumerated() {
            live.receive(e)
            if i % 3 == 0 { _ = live.plan(app: "news", at: nil, horizon: Millis.day) }  // plans never advance the live state
        }
        #expect(try ResultText.json(live.plan(app: "news", at: nil, horizon: Millis.day))
                == ResultText.json(rebuilt.plan(app: "news", at: nil, horizon: Millis.day)))
    }
}
