/// One user's engine state under a planning policy (`adaptive` unless told), kept current event by event, so that a plan is a
/// projection from the present rather than a replay of the user's history.
///
/// Feed the user's events in time order with ``receive(_:)``; ``plan(app:at:horizon:)`` then
/// copies the state and runs the copy on through the horizon with no further events. The
/// session itself is never advanced by planning, so plans and events can interleave.
///
/// Its stored state is accessed without dynamic exclusivity checks: it is used at every event
/// and every supposed wake of a plan, and no method keeps an access open across a call that
/// could start another.
///
/// Its public methods are specialized for every built-in policy a plan can be made under (the
/// registry's, ``PolicyRegistry/planning``), alike: a session the service or `next` opens from
/// `any PlanningPolicy` then runs the policy's own code, where the generic path took a plan under
/// `adaptive` measurably longer (Benchmarks/HISTORY.md, "Plans").
public final class PlanningSession<P: PlanningPolicy> {
    public let user: String
    public let planner: FetchPlanner<P>
    /// The app names the session's events use.
    public let apps: NameTable
    let catalog: AppCatalog
    /// The live engine state, nil before the first event.
    @exclusivity(unchecked) var sim: UserSimulator<P>?
    /// The user's habits, learned here for a policy that keeps none of its own (``PlanningPolicy/habits(in:)``).
    @exclusivity(unchecked) var ownHabits: UsageModel?
    /// The time of the last event received, `Int64.min` before the first.
    @exclusivity(unchecked) public private(set) var lastEventTime: Int64 = .min
    /// The plans answered since the last event or report.
    @exclusivity(unchecked) var memo = PlanMemo()
    /// The run the plans from one moment read, kept for the next plan from that moment until
    /// the next event or report (`PlanRun`) …
    @exclusivity(unchecked) var kept: PlanRun<P>?
    /// … once a second plan from that moment asks: the moment of the last run not kept. A user
    /// whose plans come one app at a time keeps no run.
    @exclusivity(unchecked) var ranOnceFrom: Int64?

    /// A session for `user`, whose events name apps through `apps`.
    public init(planner: FetchPlanner<P>, user: String, apps: NameTable) {
        self.planner = planner
        self.user = user
        self.apps = apps
        self.catalog = AppCatalog(scenario: planner.scenario, names: apps)
        if planner.policy.habits(in: planner.policy.makeState()) == nil { ownHabits = UsageModel() }
    }

    /// The habits the plan forecasts from: the policy's (in its state `policy`), else the session's own.
    func habits(in policy: P.UserState) -> UsageModel {
        planner.policy.habits(in: policy) ?? ownHabits ?? UsageModel()
    }

    /// The user's id in the session's events, nil before the first.
    public var userID: Int32? { sim?.user }

    /// Takes the user's next event; events and reports must come in time order.
    @_specialize(exported: true, where P == ValueRulePolicy<HabitsPredictor>)
    @_specialize(exported: true, where P == AdaptivePolicy)
    @_specialize(exported: true, where P == CountsPolicy)
    @_specialize(exported: true, where P == ValueRulePolicy<CountsPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<APPMPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<LearnedPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<MixPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<Mix2Predictor>)
    public func receive(_ e: UsageEvent) {
        precondition(e.time.millis >= lastEventTime, "events of a planning session must come in time order")
        simulator(user: e.user).receive(e)
        ownHabits?.observe(e)
        lastEventTime = e.time.millis
        forget()
    }

    /// Takes a fetch the app made and reported, in time order with the events (by its start).
    @_specialize(exported: true, where P == ValueRulePolicy<HabitsPredictor>)
    @_specialize(exported: true, where P == AdaptivePolicy)
    @_specialize(exported: true, where P == CountsPolicy)
    @_specialize(exported: true, where P == ValueRulePolicy<CountsPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<APPMPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<LearnedPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<MixPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<Mix2Predictor>)
    public func report(_ f: FetchReport, user id: Int32) {
        precondition(f.start.millis >= lastEventTime, "reports of a planning session must come in time order")
        simulator(user: id).report(f)
        lastEventTime = f.start.millis
        forget()
    }

    /// Drops what plans kept: the state they came from has changed.
    private func forget() {
        memo.forget()
        kept = nil
        ranOnceFrom = nil
    }

    /// Whether a projection may run to `t`: from the last event up to ``InputBounds/maxHorizon``
    /// past it, so its work is bounded whatever the moment asked about.
    public func reachable(_ t: Int64) -> Bool {
        lastEventTime != .min && t >= lastEventTime && t - lastEventTime <= InputBounds.maxHorizon
    }

    /// What the device has spent of the day's budgets at `at` (nil: the last event); nil when
    /// there are no events or `at` is not ``reachable(_:)``.
    @_specialize(exported: true, where P == ValueRulePolicy<HabitsPredictor>)
    @_specialize(exported: true, where P == AdaptivePolicy)
    @_specialize(exported: true, where P == CountsPolicy)
    @_specialize(exported: true, where P == ValueRulePolicy<CountsPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<APPMPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<LearnedPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<MixPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<Mix2Predictor>)
    public func budget(at: Int64?) -> BudgetState? {
        guard let live = sim, reachable(at ?? lastEventTime) else { return nil }
        let sim = projection(of: live, to: at ?? lastEventTime)
        sim.rollDay(at: sim.state.now)
        return sim.budget
    }

    /// A copy of the live state, run with no further events up to `t`; the live state is
    /// left as it is.
    func projection(of live: UserSimulator<P>, to t: Int64,
                            trace: (any TraceSink)? = nil) -> UserSimulator<P> {
        let sim = live.copy(run: ReplayContext(seed: planner.seed, catalog: catalog, trace: trace, keepsDays: false))
        sim.drain()
        sim.advance(to: t)
        return sim
    }

    private func simulator(user id: Int32) -> UserSimulator<P> {
        if let sim { return sim }
        let made = UserSimulator(user: id, name: user, policy: planner.policy,
                                 run: ReplayContext(seed: planner.seed, catalog: catalog, trace: nil, keepsDays: false))
        sim = made
        return made
    }

    /// Plans fetches of `app` over `(at, at + horizon]`; `at` nil means the last event.
    ///
    /// The same question asked again before the next event or report is answered from the
    /// plans kept (`PlanMemo`): the same plan, at the cost of a lookup. From the second app's
    /// plan from one moment on, the plans read one kept run (`PlanRun`): the same plans, each
    /// at the cost of its own wakes.
    @_specialize(exported: true, where P == ValueRulePolicy<HabitsPredictor>)
    @_specialize(exported: true, where P == AdaptivePolicy)
    @_specialize(exported: true, where P == CountsPolicy)
    @_specialize(exported: true, where P == ValueRulePolicy<CountsPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<APPMPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<LearnedPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<MixPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<Mix2Predictor>)
    public func plan(app: String, at: Int64?, horizon: Int64) -> FetchPlan {
        let question = PlanMemo.Question(app: app, at: at, horizon: horizon)
        if let known = memo.plan(for: question) { return known }
        let plan = plan(app: app, at: at, horizon: horizon, keeping: .whenAskedAgain)
        memo.keep(plan, for: question)
        return plan
    }

    /// The JSON of ``plan(app:at:horizon:)`` (``ResultText/json(_:)``) with the user named
    /// `user`, kept with the plan until the next event or report.
    public func planJSON(app: String, at: Int64?, horizon: Int64, naming user: String) throws -> String {
        let question = PlanMemo.Question(app: app, at: at, horizon: horizon)
        if let text = memo.json(for: question, naming: user) { return text }
        var plan = plan(app: app, at: at, horizon: horizon)
        plan.user = user
        let text = try ResultText.json(plan)
        memo.keep(json: text, naming: user, for: question)
        return text
    }

    /// Plans fetches of `app` over `(at, at + horizon]` from the live state, whatever was kept.
    @_specialize(exported: true, where P == ValueRulePolicy<HabitsPredictor>)
    @_specialize(exported: true, where P == AdaptivePolicy)
    @_specialize(exported: true, where P == CountsPolicy)
    @_specialize(exported: true, where P == ValueRulePolicy<CountsPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<APPMPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<LearnedPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<MixPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<Mix2Predictor>)
    public func planAnew(app: String, at: Int64?, horizon: Int64) -> FetchPlan {
        plan(app: app, at: at, horizon: horizon, keeping: .never)
    }

    /// The plans of each of `apps` over `(at, at + horizon]` from the live state, whatever was
    /// kept: the same as ``planAnew(app:at:horizon:)`` for each, from one run of the engine and
    /// the wakes they have in common (`PlanRun`).
    @_specialize(exported: true, where P == ValueRulePolicy<HabitsPredictor>)
    @_specialize(exported: true, where P == AdaptivePolicy)
    @_specialize(exported: true, where P == CountsPolicy)
    @_specialize(exported: true, where P == ValueRulePolicy<CountsPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<APPMPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<LearnedPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<MixPredictor>)
    @_specialize(exported: true, where P == ValueRulePolicy<Mix2Predictor>)
    public func plans(apps: [String], at: Int64?, horizon: Int64) -> [FetchPlan] {
        let (kept, ranOnceFrom) = (self.kept, self.ranOnceFrom)
        defer { (self.kept, self.ranOnceFrom) = (kept, ranOnceFrom) }
        self.kept = nil
        return apps.map { plan(app: $0, at: at, horizon: horizon, keeping: .always) }
    }

    /// When a plan's run is kept for the plans that follow from the same moment.
    enum Keeping {
        /// Never: the plan is computed anew.
        case never
        /// Once a second plan from the moment has asked (the service's questions, one app at a time).
        case whenAskedAgain
        /// From the first (several apps planned at once).
        case always
    }

    /// A plan of `app`, from the run kept for its moment when there is one (unless `keeping` is
    /// `.never`), else from a run of its own, kept as `keeping` says.
    private func plan(app: String, at: Int64?, horizon: Int64, keeping: Keeping) -> FetchPlan {
        let scenario = planner.scenario
        let settings = scenario.settings(forApp: app)
        var plan = FetchPlan(user: user, app: app, at: at ?? lastEventTime, horizon: horizon, interval: settings.interval,
                             energyBudget: scenario.energyBudgetMicroJ)
        guard let live = sim else {
            plan.reason = "no events of the user\(at == nil ? "" : " before that moment")"
            return plan
        }
        guard plan.at >= lastEventTime else {
            plan.reason = "the moment is before the user's last event received; plans only look ahead"
            return plan
        }
        // The projection runs from the last event to the horizon's end: bounded whatever `at` says.
        guard plan.at - lastEventTime <= InputBounds.maxHorizon, horizon <= InputBounds.maxHorizon else {
            plan.reason = "the moment is more than \(DurationText.format(InputBounds.maxHorizon)) after the user's last event (or the horizon longer than that): plans look at most that far ahead"
            return plan
        }
        let run: PlanRun<P>
        if keeping != .never, let kept, kept.at == plan.at {
            run = kept
        } else {
            let keeps = keeping == .always || (keeping == .whenAskedAgain && ranOnceFrom == plan.at)
            let trace = PlanTrace()
            run = PlanRun(projection(of: live, to: plan.at, trace: trace), at: plan.at, trace: trace, keeps: keeps)
            if keeps { kept = run } else if keeping == .whenAskedAgain { ranOnceFrom = plan.at }
        }
        let start = run.startState
        plan.offsetMinutes = start.offset
        if settings.interval == .never {
            plan.reason = "the app's fetch interval is never: it is never fetched in the background"
            return plan
        }
        guard let appID = apps.existingID(app), let state = start.apps.first(where: { $0.id == appID }) else {
            plan.reason = "the user has not opened '\(app)' yet" + (planner.policy.waiting(opens: 0).map { ": " + $0 } ?? "")
            return plan
        }
        plan.opens = state.opens
        // The wakes on the way, supposed on the run at their moments; then its timed fetches.
        plan.triggers = triggers(in: run, app: appID, horizon: horizon)
        run.advance(to: plan.at + horizon)
        let model = habits(in: start.policy), window = max(scenario.tick, Millis.minute), policy = planner.policy
        plan.entries = run.trace.entries(of: appID, through: plan.at + horizon) { t, offset in
            policy.timedChance(of: appID, at: t, offsetMinutes: offset, state: start.policy)
                ?? (model.openProbability(appID, from: t, span: window, offsetMinutes: offset, smoothed: true), window)
        }
        if kept === run && !run.withinBounds { kept = nil }  // a long horizon's run is not kept
        if plan.entries.isEmpty {
            let waiting = planner.policy.waiting(opens: state.opens)
            plan.reason = waiting != nil
                ? "only \(state.opens) open of '\(app)' so far: \(waiting!)"
                : plan.triggers.contains(where: \.fetch)
                    ? "no open of '\(app)' is likely enough at a timed moment to be worth a fetch: it is fetched at wakes (the triggers)"
                    : "no open of '\(app)' is likely enough within the horizon to be worth a fetch (or it is fresh)"
        }
        return plan
    }
}
