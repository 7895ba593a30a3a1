/// Answers "when should this app fetch next, and why": replays one user's log up to a moment
/// under the `adaptive` policy, then lets the same engine run on through the horizon with no
/// further events and collects the fetches it starts. The plan is therefore exactly what a
/// replay would do from that moment if the user did nothing meanwhile; fetches the policy
/// would make at a screen_on or an open cannot be planned in time and are not listed.
public struct FetchPlanner {
    public let scenario: Scenario
    public let seed: UInt64
    public let policy: AdaptivePolicy

    public init(scenario: Scenario, seed: UInt64, policy: AdaptivePolicy = AdaptivePolicy()) {
        self.scenario = scenario
        self.seed = seed
        self.policy = policy
    }

    /// Plans fetches of `app` for `user` over `(at, at + horizon]`; `at` nil means the user's
    /// last event. Events of other users, and events after `at`, are ignored.
    public func plan<S: UsageEventSource>(_ source: inout S, user: String, app: String, at: Instant?,
                                          horizon: Int64) throws -> FetchPlan {
        let trace = PlanTrace()
        let run = ReplayContext(seed: seed, catalog: AppCatalog(scenario: scenario, names: source.apps), trace: trace)
        var sim: UserSimulator<AdaptivePolicy>? = nil
        var last: Int64 = .min
        while let e = try source.next() {
            guard source.users[e.user] == user else { continue }
            if let at, e.time > at { break }
            if sim == nil { sim = UserSimulator(user: e.user, name: user, policy: policy, run: run) }
            sim!.receive(e)
            last = e.time.millis
        }
        let settings = scenario.settings(forApp: app)
        var plan = FetchPlan(user: user, app: app, at: at?.millis ?? last, horizon: horizon, interval: settings.interval,
                             energyBudget: scenario.energyBudgetMicroJ)
        guard let sim else {
            plan.reason = "no events of user '\(user)'\(at == nil ? "" : " before that moment")"
            return plan
        }
        sim.drain()
        sim.advance(to: plan.at)
        plan.offsetMinutes = sim.offset
        if settings.interval == .never {
            plan.reason = "the app's fetch interval is never: it is never fetched in the background"
            return plan
        }
        guard let appID = source.apps.existingID(app), let state = sim.apps.first(where: { $0.id == appID }) else {
            plan.reason = "user '\(user)' has not opened '\(app)' yet: the adaptive policy waits for two opens (cold start)"
            return plan
        }
        plan.opens = state.opens
        trace.rows.removeAll()
        trace.energy = sim.energyToday
        trace.day = sim.day
        trace.user = sim.user
        trace.app = appID
        trace.model = sim.policyState.model
        trace.horizon = max(scenario.tick, Millis.minute)
        sim.advance(to: plan.at + horizon)
        plan.entries = trace.planned
        if plan.entries.isEmpty {
            plan.reason = state.opens < 2
                ? "only \(state.opens) open of '\(app)' so far: the adaptive policy waits for two (cold start)"
                : "no open of '\(app)' is likely enough within the horizon to be worth a fetch (or it is fresh)"
        }
        return plan
    }
}

/// Collects the planned fetches of one app, with the budget state before each.
final class PlanTrace: TraceSink {
    var rows: [TraceRow] = []
    var planned: [FetchPlan.Entry] = []
    var energy: Int64 = 0
    var day: Int64 = .min
    var user: Int32 = -1
    var app: Int32 = -1
    var model = UsageModel()
    var horizon: Int64 = 0

    func record(_ row: TraceRow) {
        guard user >= 0, row.user == user else { return }
        let d = LocalTime.day(row.start, offsetMinutes: Int(row.offsetMinutes))
        if d != day { day = d; energy = 0 }
        if row.app == app && row.refusal == nil {
            let p = model.openProbability(app, from: row.start, span: horizon, offsetMinutes: Int(row.offsetMinutes))
            planned.append(FetchPlan.Entry(time: row.start, offsetMinutes: Int(row.offsetMinutes), network: row.network,
                                           energyMicroJ: row.energyMicroJ, bytes: row.bytes,
                                           windowStart: row.start + UsageModel.prefetchLead,
                                           windowEnd: row.start + horizon + UsageModel.prefetchLead,
                                           probability: p, energyUsedBefore: energy))
        }
        energy += row.energyMicroJ
    }
}
