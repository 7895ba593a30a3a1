import FetchCore
import FetchTesting
import Testing

/// Plans under the value rule, over each predictor: a trigger's reason, read from the rule's
/// assessment of the app at the wake, says what the engine's decision there was.
struct ValueRulePlanTests {
    /// The plan of `app` for the log's first user at `at`, under `policy`.
    static func plan<P: PlanningPolicy>(_ log: PlanTriggerTests.Log, app: String, at: Int64, policy: P) -> FetchPlan {
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        return try! FetchPlanner(scenario: .default, seed: 1, policy: policy)
            .plan(&source, user: log.users[0], app: app, at: Instant(millis: at), horizon: Millis.day)
    }

    static func plan(_ log: PlanTriggerTests.Log, app: String, at: Int64, family: String) throws -> FetchPlan {
        let policy = try #require(PolicySpec.parse(family) as? any PlanningPolicy, "\(family) plans")
        return plan(log, app: app, at: at, policy: policy)
    }

    /// Where the engine refuses nothing, a trigger fetches exactly when its reason says the fetch
    /// clears the bar at the user's price: the assessment a plan explains is the decision's.
    @Test(arguments: ValueRuleFamilies.families)
    func aTriggersReasonSaysTheRulesDecisionThere(family: String) throws {
        var checked = 0, fetched = 0
        for seed: UInt64 in [3, 5] {
            let log = PlanTriggerTests.generated(seed: seed)
            let cut = log.events[log.events.count * 2 / 3].time.millis
            for app in PlanTriggerTests.habitual(log).prefix(5) {
                for t in try Self.plan(log, app: app, at: cut, family: family).triggers where t.refusal == nil {
                    #expect(t.reason.contains("at least the") == t.fetch, "\(family) \(app) \(t.kind): \(t.reason)")
                    #expect(t.fetch || t.reason.contains("below the") || t.reason.contains("no fetch needed")
                            || t.reason.contains("no chance"), "\(t.reason)")
                    checked += 1
                    if t.fetch { fetched += 1 }
                }
            }
        }
        #expect(checked >= 10 && fetched > 0, "\(checked) triggers, \(fetched) fetched")
    }

    /// A plan under the rule at one price for every user says so, and a higher price fetches at
    /// no more of the wakes.
    @Test func aPlanAtOnePriceSaysItAndADearerOneFetchesLess() throws {
        let log = PlanTriggerTests.generated(seed: 3)
        let cut = log.events[log.events.count * 2 / 3].time.millis
        var cheap = 0, dear = 0
        for app in PlanTriggerTests.habitual(log).prefix(5) {
            let low = try Self.plan(log, app: app, at: cut, family: "adaptive:0.001")
            let high = try Self.plan(log, app: app, at: cut, family: "adaptive:5")
            #expect(low.triggers.allSatisfy { $0.reason.contains("at the price for every user") || !$0.reason.contains("needed at") })
            cheap += low.triggers.filter(\.fetch).count
            dear += high.triggers.filter(\.fetch).count
        }
        #expect(cheap > dear)
    }
}
