#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PlanningSession {
    /// Predecessor apps listed per plan: the likeliest to come before an open of the app.
    static var maxPredecessors: Int { 3 }

    /// What the engine would do at a wake of `kind` at `at` (nil: the last event), given the
    /// events so far: the same state a replay of them has, run on to that moment, then the wake.
    /// The session is left as it is. Nil before any event or when `at` is not ``reachable(_:)``.
    @_specialize(exported: true, where P == ValueRulePolicy<HabitsPredictor>)
    @_specialize(exported: true, where P == AdaptivePolicy)
    @_specialize(exported: true, where P == CountsPolicy)
    @_specialize(exported: true, where P == ValueRulePolicy<CountsPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<APPMPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<LearnedPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<MixPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<Mix2Predictor>)
    public func wake(_ kind: WakeKind, at: Int64?) -> WakeDecision? {
        guard let live = sim, reachable(at ?? lastEventTime) else { return nil }
        let t = at ?? lastEventTime
        let base = projection(of: live, to: lastEventTime)
        let rows = PlanRun.suppose(UsageEvent(time: Instant(millis: t), user: base.user, kind: kind.event,
                                              offsetMinutes: Int16(base.state.offset)), on: base, seed: planner.seed, catalog: catalog).rows
        return WakeDecision(kind: kind, at: t, offsetMinutes: base.state.offset, fetches: rows.map {
            WakeDecision.Fetch(app: apps[$0.app], network: $0.network, energyMicroJ: $0.energyMicroJ, bytes: $0.bytes,
                               refusal: $0.refusal)
        })
    }

    /// The trigger entries of `app`'s plan from `run`: each wake on the way (a screen_on, a
    /// plug-in, another app's open, a silent push) supposed at its moment on the engine as the
    /// run has it there (``PlanRun/suppose(_:)``, which supposes each wake once for every plan
    /// of the run), and weighed for `app` as the policy saw it there.
    func triggers(in run: PlanRun<P>, app: Int32, horizon: Int64) -> [FetchPlan.Trigger] {
        let at = run.at, start = run.startState
        let model = habits(in: start.policy), offset = start.offset
        var wakes: [(FetchPlan.Trigger.Kind, WakeForecast, UsageEvent)] = []
        func event(_ kind: EventKind, _ f: WakeForecast, app: Int32 = -1, value: Int16 = 0) -> UsageEvent {
            // Decided at the second by which half the chance has come (not rounded to the minute:
            // ticks fall on whole minutes, and run before an event at the same instant).
            let t = min(at + horizon, at + (f.median + Millis.second - 1) / Millis.second * Millis.second)
            return UsageEvent(time: Instant(millis: t), user: run.trace.user, app: app, kind: kind, value: value, offsetMinutes: Int16(offset))
        }
        if let f = model.screenOnForecast(from: at, span: horizon, offsetMinutes: offset) {
            wakes.append((.screenOn, f, event(.screenOn, f)))
        }
        if let f = model.plugForecast(from: at, span: horizon, offsetMinutes: offset) {
            wakes.append((.plugged, f, event(.plugged, f)))
        }
        // Ranked by the chance the app follows the other one, times the chance of the other's
        // open within the horizon (its re-open rhythm: the chance an open forecast states); only
        // the apps listed pay for the forecast's quantiles.
        let before = model.apps.keys.compactMap { other -> (Int32, Double)? in
            let follows = model.successorProbability(app, after: other)
            guard other != app, follows > 0 else { return nil }
            let chance = model.reopenProbability(other, at: at, within: horizon)
            return chance > 0 ? (other, follows * chance) : nil
        }
        for (other, _) in before.sorted(by: { $0.1 != $1.1 ? $0.1 > $1.1 : apps[$0.0] < apps[$1.0] }).prefix(Self.maxPredecessors) {
            guard let f = model.openForecast(other, from: at, span: horizon) else { continue }
            wakes.append((.open(after: apps[other]), f, event(.open, f, app: other)))
        }
        if case .updates(let mean) = catalog.settings(app).content {
            // The server's next update, at its mean rate: a silent push then would wake the app.
            let rate = 1 / Double(mean), chance = 1 - exp(-rate * Double(horizon))
            func quantile(_ q: Double) -> Int64 { Int64((-log(1 - q * chance) / rate).rounded(.up)) }
            let f = WakeForecast(chance: chance, early: quantile(0.25), median: quantile(0.5), late: quantile(0.75))
            wakes.append((.push, f, event(.push, f, app: app, value: PushKind.silent.rawValue)))
        }
        let decided = run.suppose(wakes.map(\.2), for: app)
        // The run has no events: the network is the same at every moment of it.
        let network = start.context.network
        return zip(wakes, decided).map { wake, supposed in
            let (kind, f, e) = wake
            let row = supposed.rows.first { $0.app == app }
            let ran = row.map { $0.refusal == nil } ?? false
            let assessment = supposed.seen.flatMap { planner.policy.assess(app, at: PlanRun<P>.point(of: e), view: $0.view, state: $0.state) }
            let terms = assessment.map { planner.policy.terms(of: $0) }
            var t = FetchPlan.Trigger(kind: kind, chance: f.chance, windowStart: at + f.early, windowEnd: at + f.late,
                                      time: e.time.millis, offsetMinutes: offset, fetch: ran, refusal: row?.refusal,
                                      expectedRescues: terms?.expectedRescues ?? 0, costJoules: terms?.costJoules ?? 0,
                                      energyMicroJ: ran ? row?.energyMicroJ : nil, bytes: ran ? row?.bytes : nil,
                                      network: row?.network ?? network, reason: "")
            t.reason = TriggerReason.text(t, policy: planner.policy, assessment: assessment, state: assessment == nil ? nil : supposed.seen?.state,
                                          app: app, at: e)
            return t
        }
    }
}
