@testable import FetchCore
import FetchTesting
import Testing

/// The plans of a user's apps from one moment share one run of the engine and the wakes they
/// have in common (`PlanRun`); each is the plan that app gets from a run of its own.
struct PlanRunTests {
    /// A planning session fed the first `cut` of a generated user's events (screen_on before each
    /// session, charging at night, apps whose server updates them); without the screen events
    /// when not `unlocks`: such a user's apps are fetched by the clock more than at wakes.
    static func session(seed: UInt64, cut: Double, unlocks: Bool = true)
        -> (PlanningSession<ValueRulePolicy<ValueRuleFamilies.DefaultPredictor>>, apps: [String], last: Int64) {
        let log = PlanTriggerTests.generated(days: 14, seed: seed)
        let session = PlanningSession(planner: FetchPlanner(scenario: .default, seed: seed), user: log.users[0], apps: log.apps)
        let events = log.events.filter { $0.user == 0 && (unlocks || ($0.kind != .screenOn && $0.kind != .screenOff)) }
        for e in events.prefix(Int(Double(events.count) * cut)) { session.receive(e) }
        return (session, PlanTriggerTests.habitual(log), session.lastEventTime)
    }

    @Test(arguments: [(UInt64(3), 0.5), (8, 0.75), (11, 0.9), (21, 0.6)])
    func everyAppsPlanFromTheSharedRunIsItsPlanFromARunOfItsOwn(seed: UInt64, cut: Double) throws {
        var triggers = 0, entries = 0
        for unlocks in [true, false] {
            let (session, apps, last) = Self.session(seed: seed, cut: cut, unlocks: unlocks)
            var rng = SplitMix64(seed: seed)
            // Questions in a random order, from a few moments and horizons, short and long: a later
            // question may need the run further on, or wakes before the moment it has reached.
            for _ in 0..<60 {
                let app = apps[rng.int(in: 0...(apps.count - 1))]
                let at: Int64? = rng.chance(0.5) ? nil : last + Int64(rng.int(in: 0...2)) * 5 * Millis.hour
                let horizon = [Millis.hour * 3, Millis.day, 3 * Millis.day][rng.int(in: 0...2)]
                let shared = session.plan(app: app, at: at, horizon: horizon)
                let own = session.planAnew(app: app, at: at, horizon: horizon)
                #expect(try ResultText.json(shared) == ResultText.json(own), "seed \(seed): \(app) at \(String(describing: at)) for \(horizon)")
                triggers += own.triggers.count
                entries += own.entries.count
            }
            // One run for all of them at once, in the order given.
            let all = session.plans(apps: apps, at: nil, horizon: Millis.day)
            for (app, plan) in zip(apps, all) {
                #expect(try ResultText.json(plan) == ResultText.json(session.planAnew(app: app, at: nil, horizon: Millis.day)), "\(app)")
            }
        }
        #expect(triggers > 100 && entries > 10, "the questions must reach plans with wakes and timed fetches")
    }

    /// A plan of one app supposes each wake for that app alone (``UserSimulator/weighingOnly``):
    /// its fetch there, or the refusal, is the full decision's, on budgets that leave room for
    /// every app and on budgets so tight that another app's fetch at the wake refuses it; under
    /// each planning policy that weighs one app alone.
    @Test(arguments: [(UInt64(3), 0.5), (21, 0.6), (11, 0.9)], ["adaptive", "adaptive-v1", "counts"])
    func aWakeWeighedForOneAppFetchesItAsTheFullDecisionDoes(user: (seed: UInt64, cut: Double), policy: String) {
        let (narrowed, refusedAfterAnother) = switch policy {
        case "counts": Self.compareWakes(CountsPolicy(), seed: user.seed, cut: user.cut)
        case "adaptive": Self.compareWakes(ValueRuleFamilies.defaultPolicy, seed: user.seed, cut: user.cut)
        default: Self.compareWakes(AdaptivePolicy(), seed: user.seed, cut: user.cut)
        }
        #expect(narrowed > 100, "most wakes are weighed for the one app")
        // `counts` fetches at the ticks whenever a budget leaves room, and `adaptive` paces itself
        // toward a share of it, so their wakes rarely find room for one fetch and not two; the
        // engine's check is the same for every policy.
        #expect(policy != "adaptive-v1" || refusedAfterAnother > 0,
                "the tight budgets must reach an app refused after another's fetch at the wake")
    }

    /// Supposes random wakes after the first `cut` of a generated user's events, for each app
    /// alone and in full, and expects the app's row to be the same; returns how many were
    /// weighed for the app alone, and how many the full decision refused after another's fetch.
    static func compareWakes<P: PlanningPolicy>(_ policy: P, seed: UInt64, cut: Double) -> (narrowed: Int, refusedAfterAnother: Int) {
        let log = PlanTriggerTests.generated(days: 14, seed: seed)
        let events = log.events.filter { $0.user == 0 }
        var narrowed = 0, refusedAfterAnother = 0
        for budget: Int64? in [nil, 40_000_000, 20_000_000, 12_000_000] {
            var scenario = Scenario.default
            if let budget { scenario.energyBudgetMicroJ = budget }
            let planner = FetchPlanner(scenario: scenario, seed: seed, policy: policy)
            let session = PlanningSession(planner: planner, user: log.users[0], apps: log.apps)
            for e in events.prefix(Int(Double(events.count) * cut)) { session.receive(e) }
            let base = session.projection(of: session.sim!, to: session.lastEventTime)
            let apps = base.state.apps.map(\.id)
            var rng = SplitMix64(seed: seed)
            for _ in 0..<40 {
                let t = session.lastEventTime + Int64(rng.int(in: 1...(24 * 60))) * Millis.minute
                let other = apps[rng.int(in: 0...(apps.count - 1))]
                let (kind, app, value): (EventKind, Int32, Int16) = [(.screenOn, -1, 0), (.plugged, -1, 0), (.open, other, 0),
                                                                     (.push, other, PushKind.silent.rawValue)][rng.int(in: 0...3)]
                let wake = UsageEvent(time: Instant(millis: t), user: base.user, app: app, kind: kind, value: value,
                                      offsetMinutes: Int16(base.state.offset))
                let full = PlanRun.suppose(wake, on: base, seed: seed, catalog: session.catalog).rows
                for app in apps {
                    let sim = base.copy(run: PlanRun<P>.context(seed, session.catalog, trace: nil))
                    sim.advance(to: t)
                    if sim.budgetsCoverEveryApp() { narrowed += 1 }
                    let one = PlanRun.suppose(wake, on: base, seed: seed, catalog: session.catalog, weighingOnly: app).rows
                    let mine = full.firstIndex { $0.app == app }
                    #expect(Self.text(one.first { $0.app == app }) == Self.text(mine.map { full[$0] }), "\(policy.name): \(wake) for \(app)")
                    if let mine, full[mine].refusal == .energyBudget, full[..<mine].contains(where: { $0.refusal == nil }) {
                        refusedAfterAnother += 1
                    }
                }
            }
        }
        return (narrowed, refusedAfterAnother)
    }

    static func text(_ row: TraceRow?) -> String { row.map { "\($0)" } ?? "none" }

    /// A kept run holds at most its bytes, however many wakes its plans suppose; past them a
    /// long horizon's run is not kept at all.
    @Test func aKeptRunStaysWithinItsBytes() throws {
        let (session, apps, _) = Self.session(seed: 5, cut: 0.8)
        var keptRuns = 0
        // Each horizon puts the wakes at other moments: more of them than the run may keep.
        for horizon in [3 * Millis.hour, 12 * Millis.hour, Millis.day, 2 * Millis.day] {
            for app in apps {
                _ = session.plan(app: app, at: nil, horizon: horizon)
                if let kept = session.kept {
                    keptRuns += 1
                    #expect(kept.totalBytes <= PlanRun<ValueRulePolicy<ValueRuleFamilies.DefaultPredictor>>.maxBytes)
                }
            }
        }
        // Every run of the shorter horizons is kept from the second plan from the moment on; a
        // two days' run may pass its bytes with its rows, and is then not kept.
        #expect(keptRuns >= 3 * apps.count - 1 && keptRuns < 4 * apps.count, "\(keptRuns) kept")
        _ = session.plan(app: apps[0], at: nil, horizon: InputBounds.maxHorizon)
        if let kept = session.kept { #expect(kept.withinBounds) }
    }
}
