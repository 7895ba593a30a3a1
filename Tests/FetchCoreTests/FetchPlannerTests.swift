import FetchBench
import FetchCore
import FetchResults
import FetchTesting
import Testing

/// `next`'s planner: it learns a planted habit, and plans what the replay would do.
struct FetchPlannerTests {
    /// Two weeks from Monday 2025-01-06 (UTC+1): news at 07:30 on weekdays, other at noon daily.
    func habitLog(days: Int = 14) -> LogBuilder {
        var log = LogBuilder(offsetMinutes: 60)
        for d in 0..<days {
            log.open("other", at: "12:00", plusDays: d)
            if d % 7 < 5 { log.open("news", at: "07:30", plusDays: d) }
        }
        return log
    }

    func plan(_ log: LogBuilder, at clock: String, plusDays: Int) throws -> FetchPlan {
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        return try FetchPlanner(scenario: .default, seed: 1)
            .plan(&source, user: "alice", app: "news", at: log.time(clock, plusDays: plusDays), horizon: Millis.day)
    }

    /// The plan under the value rule over the habits (`ev-habits`), which know the days of the week.
    func habitsPlan(_ log: LogBuilder, at clock: String, plusDays: Int) throws -> FetchPlan {
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        return try FetchPlanner(scenario: .default, seed: 1, policy: ValueRulePolicy(HabitsPredictor()))
            .plan(&source, user: "alice", app: "news", at: log.time(clock, plusDays: plusDays), horizon: Millis.day)
    }

    @Test func aWeekdayHabitGivesAFetchShortlyBeforeItOnTheNextWeekday() throws {
        let log = habitLog()
        let p = try habitsPlan(log, at: "20:00", plusDays: 13)  // Sunday evening
        let first = try #require(p.entries.first)
        #expect(first.time < log.time("07:30", plusDays: 14).millis)
        #expect(first.time >= log.time("07:00", plusDays: 14).millis)
        // The chance it was weighed on: the habits' score of an open within the rule's horizon,
        // calibrated for the user, over the window that follows the fetch.
        #expect(first.probability > 0 && first.windowEnd - first.windowStart == ValueRulePolicy<HabitsPredictor>.horizon)
        #expect(p.explanation.contains("weekdays"))
    }

    @Test func aWeekdayOnlyHabitPlansNothingOnAWeekend() throws {
        let p = try habitsPlan(habitLog(), at: "20:00", plusDays: 11)  // Friday evening: the next day is Saturday
        #expect(p.entries.isEmpty)
        #expect(p.reason != nil)
    }

    @Test func aNeverAppHasAnEmptyPlanAndSaysWhy() throws {
        var s = Scenario.default
        s.apps["news"] = AppSettings(interval: .never, content: s.defaultApp.content, profile: s.defaultApp.profile)
        let log = habitLog()
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        let p = try FetchPlanner(scenario: s, seed: 1).plan(&source, user: "alice", app: "news", at: nil, horizon: Millis.day)
        #expect(p.entries.isEmpty)
        #expect(p.reason?.contains("never") == true)
    }

    @Test func thePlanIsWhatTheReplayDoesFromThatMoment() throws {
        let log = habitLog()
        let p = try plan(log, at: "20:00", plusDays: 13)
        let replayed = SupposedWake.timedFetches(events: log.events, users: log.users, apps: log.apps,
                                                 cut: log.time("20:00", plusDays: 13), horizon: Millis.day, app: "news")
        #expect(!p.entries.isEmpty)
        #expect(replayed.map(\.start) == p.entries.map(\.time))
        #expect(replayed.map(\.energyMicroJ) == p.entries.map(\.energyMicroJ))
    }

    /// Every timed fetch of a plan is explained by the chance it was weighed on (under the value
    /// rule, its predictor's score calibrated for the user; under `adaptive-v1`, the time of week
    /// smoothed), never by a share of days of nothing.
    @Test(arguments: [UInt64(3), 5, 8], ["adaptive", "ev-habits", "adaptive-v1"])
    func everyPlannedFetchStatesTheChanceItWasPlannedOn(seed: UInt64, policy: String) throws {
        let csv = SyntheticLog.csv(users: 2, days: 10, seed: seed)
        let log = try ArraySource(csv: csv)
        let end = log.events.last!.time.millis
        var entries = 0
        for user in 0..<Int32(2) {
            for app in Set(log.events.map(\.app).filter { $0 >= 0 }).sorted() {
                for back in [3, 30, 50] {
                    var source = try ArraySource(csv: csv)
                    let p = try Self.plan(policy, &source, user: log.users[user], app: log.apps[app],
                                          at: Instant(millis: end - Int64(back) * Millis.hour))
                    for e in p.entries { #expect(e.probability > 0, "\(p.explanation)") }
                    entries += p.entries.count
                }
            }
        }
        #expect(entries > 0)
    }

    static func plan(_ policy: String, _ source: inout ArraySource, user: String, app: String, at: Instant) throws -> FetchPlan {
        switch policy {
        case "ev-habits": try FetchPlanner(scenario: .default, seed: 1, policy: ValueRulePolicy(HabitsPredictor()))
            .plan(&source, user: user, app: app, at: at, horizon: Millis.day)
        case "adaptive-v1": try FetchPlanner(scenario: .default, seed: 1, policy: AdaptivePolicy())
            .plan(&source, user: user, app: app, at: at, horizon: Millis.day)
        default: try FetchPlanner(scenario: .default, seed: 1).plan(&source, user: user, app: app, at: at, horizon: Millis.day)
        }
    }

    /// Planning is generic over the policy: any ``PlanningPolicy`` plans what its replay does.
    struct EveryTick: PlanningPolicy {
        var name: String { "every-tick" }
        func makeState() -> Int { 0 }
        func decide(_ point: DecisionPoint, view: UserView, state: inout Int, decision: inout Decision) {
            guard case .tick = point else { return }
            for a in view.apps { decision.fetches.append(a.id) }
        }
        func habits(in state: Int) -> UsageModel? { nil }
        func assess(_ app: Int32, at point: DecisionPoint, view: UserView, state: Int) -> Never? { nil }
        func terms(of a: Never) -> (expectedRescues: Double, costJoules: Double) {}
        func explain(_ a: Never?, kind: FetchPlan.Trigger.Kind, app: Int32, at e: UsageEvent, state: Int) -> String {
            "it fetches at every tick"
        }
        func waiting(opens: Int) -> String? { nil }
        func advisePush(app: Int32, view: UserView, state: inout Int) -> PushAdvice {
            PushAdvice(push: false, reason: "it fetches at every tick anyway", probability: 0, value: 0, cost: 0, silentPushesLeft: 0)
        }
    }

    @Test func aPlanUnderTheCountingBaselineIsWhatItsReplayDoesAndItsTriggersSayItsOwnWords() throws {
        var log = habitLog()
        for d in 0..<14 {
            log.add(.screenOn, at: "07:29:30", plusDays: d)
            log.open("news", at: "12:03", plusDays: d)
        }
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        let cut = log.time("20:00", plusDays: 13)
        let counts = CountsPolicy(threshold: 0.1)
        let p = try FetchPlanner(scenario: .default, seed: 1, policy: counts)
            .plan(&source, user: "alice", app: "news", at: cut, horizon: Millis.day)
        let replayed = SupposedWake.timedFetches(events: log.events, users: log.users, apps: log.apps, cut: cut,
                                                 horizon: Millis.day, app: "news", policy: counts)
        #expect(!p.entries.isEmpty)
        #expect(replayed.map(\.start) == p.entries.map(\.time))
        // The session learned the habits the wakes are forecast from, though the policy keeps none.
        #expect(!p.triggers.isEmpty)
        for t in p.triggers where t.kind != .push {
            #expect(t.reason.contains("(counted)") || t.reason.contains("no fetch needed") || t.reason.contains("does not fetch"), "\(t.reason)")
        }
    }

    @Test func aPlanUnderTheLearnedPolicySaysWhatItsModelGivesNotTheHabitsSentences() throws {
        var log = habitLog()
        for d in 0..<14 { log.add(.screenOn, at: "21:00", plusDays: d) }
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        let learned = AdaptivePolicy(learns: true, label: "learned")
        let p = try FetchPlanner(scenario: .default, seed: 1, policy: learned)
            .plan(&source, user: "alice", app: "news", at: log.time("20:00", plusDays: 13), horizon: Millis.day)
        let weighed = p.triggers.filter { $0.kind != .push && $0.costJoules > 0 }
        #expect(!weighed.isEmpty)
        for t in weighed {
            #expect(t.reason.contains("the learned model gives an open of it within 8m") && !t.reason.contains("sessions at this time"),
                    "\(t.reason)")
        }
    }

    @Test func aPlanUnderAnotherPolicyIsWhatThatPolicysReplayDoes() throws {
        let log = habitLog()
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        let cut = log.time("20:00", plusDays: 13)
        let p = try FetchPlanner(scenario: .default, seed: 1, policy: EveryTick())
            .plan(&source, user: "alice", app: "news", at: cut, horizon: Millis.day)
        let replayed = SupposedWake.timedFetches(events: log.events, users: log.users, apps: log.apps, cut: cut,
                                                 horizon: Millis.day, app: "news", policy: EveryTick())
        #expect(p.entries.count > 10)
        #expect(replayed.map(\.start) == p.entries.map(\.time))
        #expect(replayed.map(\.energyMicroJ) == p.entries.map(\.energyMicroJ))
    }

    @Test func planningFromALiveSessionLeavesItUntouched() throws {
        let log = habitLog()
        let planner = FetchPlanner(scenario: .default, seed: 1)
        let session = PlanningSession(planner: planner, user: "alice", apps: log.apps)
        // Plan at every open along the way, then check the session still equals a fresh replay.
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        while let e = source.next() {
            session.receive(e)
            _ = session.plan(app: "news", at: e.time.millis + Millis.hour, horizon: Millis.day)
        }
        let at = log.time("20:00", plusDays: 13)
        let live = session.plan(app: "news", at: at.millis, horizon: Millis.day)
        let fresh = try plan(log, at: "20:00", plusDays: 13)
        #expect(!live.entries.isEmpty)
        #expect(live.entries == fresh.entries)
        #expect(live.opens == fresh.opens)
        #expect(session.plan(app: "news", at: at.millis, horizon: Millis.day).entries == live.entries)
    }

    @Test func aSessionDoesNotPlanIntoThePast() throws {
        let log = habitLog(days: 3)
        let session = PlanningSession(planner: FetchPlanner(scenario: .default, seed: 1), user: "alice", apps: log.apps)
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        while let e = source.next() { session.receive(e) }
        let p = session.plan(app: "news", at: log.time("00:00", plusDays: 1).millis, horizon: Millis.day)
        #expect(p.entries.isEmpty)
        #expect(p.reason?.contains("before the user's last event") == true)
    }
}
