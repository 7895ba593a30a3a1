import FetchCore
import FetchTesting
import Testing

/// The adaptive policy against the others on logs with known habits, and its budget pacing.
struct AdaptivePolicyTests {
    func run(_ names: [String], scenario: Scenario = .default, users: Int = 6, days: Int = 14) -> [String: ReplayReport] {
        var source = try! ArraySource(csv: SyntheticLog.csv(users: users, days: days, seed: 11))
        let replays = names.map { makeReplay(policy: PolicySpec.parse($0)!, scenario: scenario, seed: 1, users: source.users, apps: source.apps) }
        try! source.run(replays)
        return Dictionary(uniqueKeysWithValues: zip(names, replays.map { $0.finish() }))
    }

    @Test func adaptiveRescuesMoreThanFixedAndThePlatformModelsAtLessEnergy() {
        let r = run(["fixed:15m", "fixed:60m", "fixed:2h", "ios", "android", "adaptive", "adaptive:0.1", "oracle"])
        let adaptive = r["adaptive"]!.total, frugal = r["adaptive:0.1"]!.total
        for name in ["fixed:15m", "fixed:60m", "fixed:2h", "ios", "android"] {
            #expect(adaptive.rescuedOpens > r[name]!.total.rescuedOpens, "\(name)")
            #expect(frugal.rescuedOpens > r[name]!.total.rescuedOpens, "\(name)")
            #expect(frugal.energyMicroJ <= r[name]!.total.energyMicroJ, "\(name)")
        }
        #expect(Double(adaptive.rescuedOpens) >= 0.6 * Double(r["oracle"]!.total.rescuedOpens))
    }

    @Test func aTightBudgetIsNeverExceededAndMostlyUsed() {
        // Dear fetches (3 MB each) against 100 J a day: demand exceeds the budget. The engine
        // keeps a worst-case reserve (a fetch running 30 s), so at most ~65 J can be spent.
        var s = Scenario.default
        s.energyBudgetMicroJ = 100_000_000
        s.defaultApp.profile.bytes = 3_000_000
        let report = run(["adaptive"], scenario: s, users: 4, days: 7)["adaptive"]!
        var used: [Double] = []
        for user in report.perUser { #expect(user.tally.violationCount(.budget) == 0) }
        for day in report.perDay where day.users > 0 {
            let share = Double(day.tally.energyMicroJ) / Double(s.energyBudgetMicroJ * Int64(day.users))
            #expect(share <= 1)
            used.append(share)
        }
        #expect(used.reduce(0, +) / Double(used.count) > 0.5, "\(used)")
    }

    @Test func neverAppsAreNotAskedFor() {
        var s = Scenario.default
        s.defaultApp.interval = .never
        let report = run(["adaptive", "ios", "android"], scenario: s, users: 3, days: 5)
        for r in report.values {
            #expect(r.total.fetches == 0)
            #expect(r.total.refusedCount(.never) == 0, "\(r.policy) asked for a never app")
        }
    }
}
