#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hand-built policy `adaptive` was until the value rule replaced it, kept as `adaptive-v1`
/// to be measured against: learns each user's habits (``UsageModel``) and fetches an app when
/// the opens it expects to rescue are worth the energy and data the fetch costs. Its parts were
/// fitted to the development logs; `adaptive` is now the value rule (``ValueRulePolicy``) over
/// the same habits (``HabitsPredictor``).
///
/// At each decision point, for each app the user has used:
/// - the chance it is opened soon, by the kind of moment: at screen_on, the chance the session
///   includes it late enough for a fetch to finish; at a plug-in, the chance it is opened in the
///   next five minutes, as after earlier plug-ins; at an open, the chance it comes next (or,
///   when the open starts a session, that the session includes it); at a tick, the chance its
///   habit brings it within the content window — discounted, for users whose screen events
///   give a cheaper chance, by how often a screen_on comes early enough before it; at an open
///   and at a tick, sharpened by the app's re-open rhythm (the gaps between its opens so far,
///   given the time since its last);
/// - times the chance that the open would find stale content (from the content model and the
///   app's last refresh), times its reliability (failed and terminated fetches count against it,
///   noData lowers it);
/// - times the user's calibration: the rescues that came of its fetches so far against those
///   it expected, so a model that promises too much for one user is believed less;
/// - against its marginal cost in joules (the radio wake is free when a wake is under way) plus
///   a price on cellular bytes.
///
/// The price per joule is never below the minimum of expected rescues per joule (the scenario's
/// `adaptive.minRescuesPerJoule`, or the policy's own). Above it, two forces raise it: within a
/// day, spending ahead of the user's usual demand so far today; across days, a dual price that
/// rises after days that came near the budget and falls back towards the minimum after days
/// that left it unspent. So the operating point follows from value, with the budget as the cap.
///
/// Cold start: an app is considered once the user has opened it twice; before any session is
/// learned, nothing is fetched (the model has no habit to go on).
public struct AdaptivePolicy: FetchPolicy {
    public struct UserState: Sendable {
        public var model = UsageModel()
        /// The learned chance's model, when the policy weighs by it (``AdaptivePolicy/learns``).
        public var learner: OpenLearner?
        /// The pacing estimate's running sums, kept while the model is unchanged.
        var demand = DemandCache()
        /// The local day of the last decision, and the largest share of a budget spent by then.
        var day: Int64 = .min
        var spent = 0.0
        /// How many times the minimum a joule costs, from the days so far (1 at the minimum).
        var dual = 1.0
        /// Rescues the model expected of the fetches whose opens have come, and those that came.
        var expected = 0.0
        var rescued = 0.0
        /// Per app, the fetch whose open has not come yet: when, what it expected, and the
        /// app's failed and terminated fetches before it.
        var waiting: [Int32: Waiting] = [:]

        /// How far to believe the model's expected rescues for this user.
        var calibration: Double { (AdaptivePolicy.prior + rescued) / (AdaptivePolicy.prior + expected) }
    }

    struct Waiting: Sendable {
        var start: Int64
        var value: Double
        var failures: Int
        var previousOpen: Int64
    }

    /// Expected rescues per joule below which no fetch is worth it; nil for the scenario's.
    package var minRescuesPerJoule: Double?
    /// Price of a cellular megabyte, in joules, at an even pace.
    package var megabytePrice: Double

    /// Whether the chance of an open comes from the learned model (``OpenLearner``) rather
    /// than from the habits' signal for the moment, sharpened by the re-open rhythm.
    public var learns: Bool
    /// Where the learned model of each user starts, when not from the shipped
    /// ``LogisticLearner/policyPrior``: a prior fitted on the other users of the population.
    package var population: PopulationPriors?
    /// The share of the daily budget to aim at, nil for none: the dual price and the day's pace
    /// then steer spending toward it, below the minimum price too.
    package var budgetShare: Double?

    public init(minRescuesPerJoule: Double? = nil, megabytePrice: Double = 2, learns: Bool = false, budgetShare: Double? = nil,
                label: String = "adaptive-v1") {
        self.learns = learns
        self.budgetShare = budgetShare
        self.label = label
        self.minRescuesPerJoule = minRescuesPerJoule
        self.megabytePrice = megabytePrice
    }

    /// The name in reports: `adaptive-v1`, or `adaptive-v1:<minimum>` with a minimum of its own.
    package var label: String
    public var name: String { label }
    public static var observesEvents: Bool { true }
    public func makeState() -> UserState {
        var state = UserState()
        if learns { state.learner = OpenLearner(prior: LogisticLearner.policyPrior) }
        return state
    }

    public func observe(_ event: UsageEvent, state: inout UserState) {
        state.learner?.observe(event)
        state.model.observe(event)
    }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision) {
        decide(point, view: view, state: &state, decision: &decision, only: nil)
    }

    /// The decision for `app` alone: each app is weighed on its own (by the calibration and the
    /// pace as the decision began), so leaving the others out changes nothing of `app`'s.
    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision,
                       weighingOnly app: Int32) {
        decide(point, view: view, state: &state, decision: &decision, only: app)
    }

    /// The decision at `point`, for every app the user has opened twice, or `only` that one.
    @inline(__always)
    private func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision, only: Int32?) {
        settle(point, view: view, state: &state)
        guard state.model.sessionTotal > 0, let horizon = Self.horizon(point, model: state.model, view: view) else { return }
        // Where the chance is the time of week's, the user's side of it is read once for every
        // app; a stretch in which no app has opens has none to weigh: most ticks of the night,
        // known without asking each app.
        var stretch: UsageModel.Stretch? = nil
        if case .timeOfWeek = Self.signal(point, model: state.model) {
            let s = state.model.stretch(from: view.now.millis, span: horizon, offsetMinutes: view.offsetMinutes, smoothed: true)
            guard s.anyActive else { return }
            stretch = s
        }
        var paced: Double? = nil  // the pacing estimate, computed when first needed
        let calibration = state.calibration  // as the decision began, whatever it settles
        // By index: a for-in copies each app's state out.
        for k in view.weighed {
            let i = Int(k)
            guard view.apps[i].opens >= 2 && (only == nil || view.apps[i].id == only) else { continue }
            guard let value = evaluate(view.apps[i], point, view: view, horizon: horizon, calibration: calibration, state: &state,
                                       paced: &paced, stretch: stretch, note: nil) else { continue }
            let app = view.apps[i]
            decision.fetches.append(app.id)
            if case .window = app.settings.content {
                // A fetch before the open came expected rescues of its own, and brought none.
                if let earlier = state.waiting[app.id] { state.expected += earlier.value }
                state.waiting[app.id] = Waiting(start: view.now.millis, value: value, failures: app.failed + app.terminated,
                                                previousOpen: app.lastOpen)
            }
        }
    }

    /// What the policy makes of `app` at `point`, in its own terms, as ``decide(_:view:state:decision:)``
    /// would weigh it there (the state is left as it is); nil when it does not weigh the app at
    /// all (before a session is learned, in cold start, at a content update).
    public func assess(_ app: Int32, at point: DecisionPoint, view: UserView, state: UserState) -> Assessment? {
        var state = state
        settle(point, view: view, state: &state)
        guard state.model.sessionTotal > 0, let horizon = Self.horizon(point, model: state.model, view: view),
              let app = view.app(app), app.opens >= 2 else { return nil }
        var paced: Double? = nil
        var found: Assessment? = nil
        _ = evaluate(app, point, view: view, horizon: horizon, calibration: state.calibration, state: &state, paced: &paced,
                     stretch: nil, note: { found = $0 })
        return found
    }

    /// How far ahead a decision at `point` looks for the open a fetch would rescue (content
    /// fresh until then needs no fetch); nil where the policy does not fetch.
    static func horizon(_ point: DecisionPoint, model: UsageModel, view: UserView) -> Int64? {
        switch point {
        case .wake(.screenOn), .open: Millis.minute
        case .wake(.plugged) where model.plugs > 0: Millis.minute
        case .wake, .tick, .timer: max(view.scenario.tick, Millis.minute)
        case .contentUpdate: nil  // fetch-only: pushes are push-adaptive's
        }
    }

    /// The one rule of the policy for one app: the expected rescues of fetching it now when
    /// they are worth its cost, else nil. `note`, when given, receives the terms it decided by
    /// (and the decision skips no work for it: the output is the same either way).
    @inline(__always)
    func evaluate(_ app: AppState, _ point: DecisionPoint, view: UserView, horizon: Int64, calibration: Double,
                  state: inout UserState, paced: inout Double?, stretch: UsageModel.Stretch?,
                  note: ((Assessment) -> Void)?) -> Double? {
        // `state.model` is read in place each time: a copy of the model here, once per app
        // weighed, showed in profiles of a replay (its inline fields are copied whole).
        let now = view.now.millis, offset = view.offsetMinutes
        // Cheap checks first: most apps at most moments cannot or need not fetch.
        let need = Self.need(of: app, at: now, within: horizon)
        guard case .stale(let stale) = need else {
            note?(Assessment(chance: 0, reopen: nil, stale: 0, value: 0, calibration: calibration, costJoules: 0, bar: 0,
                             unneeded: need))
            return nil
        }
        if state.learner != nil {
            return learnedValue(app, point, view: view, stale: stale, calibration: calibration, state: &state, paced: &paced, note: note)
        }
        guard let chance = Self.chance(of: app.id, point, model: state.model, now: now, offsetMinutes: offset, horizon: horizon,
                                       stretch: stretch) else {
            return nil
        }
        let sharedWake: Bool
        switch point {
        case .wake, .open: sharedWake = true
        case .tick, .timer, .contentUpdate: sharedWake = false
        }
        guard chance > 0 else {
            note?(Assessment(chance: 0, reopen: nil, stale: stale, value: 0, calibration: calibration, costJoules: 0, bar: 0,
                             unneeded: nil))
            return nil
        }
        let pace = paced ?? self.pace(view, &state)
        paced = pace
        let cost = Self.cost(of: app, view: view, sharedWake: sharedWake, megabytePrice: megabytePrice * pace)
        let bar = minimum(view) * pace * cost
        // The re-open rhythm raises the chance at most to chance^0.7: most apps fall short
        // even so, and need not have it computed. Most of those are seen short of it without a
        // power (chance^7 against the bar's tenth power, with room for rounding): at a tick,
        // every app the user opens at other times has a small chance (`UsageModel.priorDays`).
        let least = bar / (stale * calibration)
        guard note != nil || Self.mayReach(chance, least) else { return nil }
        let weighed = Self.rhythmPoint(point, model: state.model, now: now)
        let most = Self.value(of: app, chance: Self.sharpened(chance, reopen: 1, weighed), stale: stale)
        guard note != nil || most * calibration * (1 + 1e-9) >= bar else { return nil }
        let reopenSpan = Self.reopenSpan(weighed, horizon: horizon)
        let reopen = reopenSpan.map { state.model.reopenProbability(app.id, at: now, within: $0) }
        let value = Self.value(of: app, chance: Self.sharpened(chance, reopen: reopen ?? 1, weighed), stale: stale)
        note?(Assessment(chance: chance, reopen: reopen, stale: stale, value: value, calibration: calibration,
                         costJoules: cost, bar: bar, unneeded: nil))
        return Self.worth(value * calibration, bar: bar) ? value : nil
    }

    /// The least expected rescues per joule worth a fetch: the policy's own, else the scenario's.
    func minimum(_ view: UserView) -> Double { minRescuesPerJoule ?? view.scenario.minRescuesPerJoule }

    /// How many times the minimum a joule costs now: the dual price from the days so far, times
    /// the day's pace, never below 1.
    func pace(_ view: UserView, _ state: inout UserState) -> Double {
        max(budgetShare == nil ? 1 : Self.lowestDual, state.dual * pacing(view, state.model, &state.demand))
    }

    /// How far below the minimum a target share of the budget may take the price.
    static var lowestDual: Double { 0.001 }

    /// Weight of the model's own word in the calibration, in expected rescues: until the user's
    /// fetches have shown this much, the model is mostly believed.
    static var prior: Double { 4 }

    /// Bookkeeping before a decision: a new day moves the dual price by how much of the budget
    /// the last one spent; an open settles the fetch that waited for it.
    func settle(_ point: DecisionPoint, view: UserView, state: inout UserState) {
        let day = view.localDay
        if day != state.day {
            // Nearer the budget than 85% (or than the target share) raises the price, further
            // lowers it: down to the minimum, or with a target share below it.
            if state.day != .min {
                let floor = budgetShare == nil ? 1 : Self.lowestDual
                state.dual = min(1000, max(floor, state.dual * exp(6 * (state.spent - (budgetShare ?? 0.85)))))
            }
            state.day = day
            state.spent = 0
        }
        state.spent = max(state.spent, Double(view.energyUsedToday) / Double(max(1, view.energyBudget)),
                          Double(view.cellularUsedToday) / Double(max(1, view.cellularBudget)))
        guard case .open(let opened) = point, let w = state.waiting.removeValue(forKey: opened),
              let app = view.app(opened), case .window(let window) = app.settings.content else { return }
        let now = view.now.millis
        // The open would have been stale without the fetch, and the fetch ended well in time.
        let staleWithout = w.previousOpen == .min || now - w.previousOpen > window
        let fetched = w.start >= now - window && !app.inFlight && app.failed + app.terminated == w.failures
        state.expected += w.value
        if staleWithout && fetched { state.rescued += 1 }
    }

    /// How much dearer energy is than at an even pace: spending ahead of the user's usual demand
    /// so far today raises the price, lagging behind lowers it.
    func pacing(_ view: UserView, _ model: UsageModel, _ cache: inout DemandCache) -> Double {
        let spent = Double(view.energyUsedToday) / Double(max(1, view.energyBudget))
        let cellular = Double(view.cellularUsedToday) / Double(max(1, view.cellularBudget))
        let expected = model.demandElapsed(at: view.now.millis, offsetMinutes: view.offsetMinutes, cache: &cache)
        // Running 10% of the budget ahead of demand multiplies the price by e; lagging behind at
        // most halves it: below that, cheap fetches of unlikely opens would spend the budget for
        // little (both measured: the real logs, and the pacing test in AdaptivePolicyTests).
        return max(0.5, exp(10 * (max(spent, cellular) / (budgetShare ?? 1) - expected)))
    }
}
