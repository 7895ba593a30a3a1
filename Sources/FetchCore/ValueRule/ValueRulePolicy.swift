/// One decision rule for any predictor: fetch an app when the rescue a fetch now is expected to
/// buy is worth its energy at the user's price, and more than waiting for a cheaper moment would
/// buy (docs/policies.md, "The value rule").
///
/// At each decision point, for each app the user has opened whose content would be stale within
/// the horizon (``horizon``):
/// - the predictor's score of an open within the horizon, calibrated for this user and kind of
///   moment (`ChanceCalibration`), times the chance the open would find stale content and the
///   app's record of fetches (as `adaptive` values a fetch), is the value;
/// - at a wake (an unlock, a plug-in, an open) the radio is awake and the fetch is fetched when
///   the value reaches the price times its cost;
/// - at a tick, the radio must wake for it, and the open may yet come after a cheaper moment
///   (``WaitOdds``, the user's own share): it is fetched when the value it adds over waiting,
///   `(1 - q) · value`, reaches the price times what it costs over waiting, `cost - q · wakeCost`.
///
/// The price is the user's own (`SpendPacing`), steered toward a share of the daily budget.
public struct ValueRulePolicy<Predictor: OpenPredictor>: FetchPolicy {
    public struct UserState: Sendable {
        package var predictor: Predictor.State
        package var calibration: ChanceCalibration
        package var pacing: SpendPacing
        public var waits: WaitOdds
        /// The user's moments shared with the family's other points, when the scores are (``SharedScores``).
        var ticket: SharedScores.Ticket?
        /// The events the predictor has seen, and the place of the next moment among the user's.
        var observed = 0, place = 0
    }

    package var predictor: Predictor
    /// The share of the daily budget each user's price steers toward.
    package var budgetShare: Double
    /// A price fixed for every user and day instead (expected rescues per joule), nil for the
    /// user's own: the rule alone, for comparing predictors at equal energy.
    package var fixedPrice: Double?
    package var label: String
    /// Price of a cellular megabyte in joules, at the user's price (as ``AdaptivePolicy``'s).
    package var megabytePrice = 2.0
    /// The scores this point shares with the other points of its family, and its place among them (``sharing(_:point:)``).
    package var sharedScores: SharedScores?
    package var sharedPoint = 0

    /// The share of the budget a rule aims at when none is given.
    package static var defaultShare: Double { 0.4 }

    public init(_ predictor: Predictor, budgetShare: Double? = nil, fixedPrice: Double? = nil, label: String? = nil) {
        self.predictor = predictor
        self.fixedPrice = fixedPrice
        self.budgetShare = budgetShare ?? Self.defaultShare
        self.label = label ?? Predictor.family
    }

    public var name: String { label }
    public static var observesEvents: Bool { true }

    public func makeState() -> UserState {
        UserState(predictor: predictor.makeState(), calibration: ChanceCalibration(longest: Self.horizon),
                  pacing: SpendPacing(), waits: WaitOdds(horizon: Self.horizon))
    }

    /// How far ahead the rule asks for an open, at every kind of moment: the learned policy's
    /// horizon (chosen among 2 to 30 minutes, and per kind, on the development logs user by
    /// user: docs/policies.md, "The value rule").
    public static var horizon: Int64 { OpenLearner.policyHorizon }

    public func makeState(userHash: UInt64) -> UserState {
        var s = makeState()
        s.ticket = sharedScores?.ticket(user: userHash, point: sharedPoint)
        return s
    }

    public func observe(_ event: UsageEvent, state: inout UserState) {
        state.observed &+= 1
        state.calibration.observe(event)
        state.waits.observe(event)
        state.pacing.observe(event)
        predictor.observe(event, state: &state.predictor)
    }

    // Specialized for each built-in predictor (the specialized replay's calls inline it anyway): a
    // plan reaches the decision through code generic over the policy, which otherwise looked up
    // the user state's type metadata at every call.
    @_specialize(where Predictor == CountsPredictor)
    @_specialize(where Predictor == APPMPredictor)
    @_specialize(where Predictor == HabitsPredictor)
    @_specialize(where Predictor == LearnedPredictor)
    @_specialize(where Predictor == MixPredictor)
    @_specialize(where Predictor == Mix2Predictor)
    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision) {
        guard let (moment, shared) = Self.moment(point, view: view) else { return }
        var price: Double? = nil
        let slots = state.ticket?.moment(.init(time: moment.time, observed: state.observed, opened: moment.opened, kind: moment.kind),
                                         cursor: &state.place, apps: view.apps)
        // By index, the app passed on as it is: a `let` copies each app's state out.
        for k in view.weighed {
            let i = Int(k)
            guard view.apps[i].id != moment.opened else { continue }
            if weigh(view.apps[i], at: moment, shared: shared, view: view, state: &state, price: &price, index: i, slots: slots).fetch {
                decision.fetches.append(view.apps[i].id)
            }
        }
    }

    /// The decision for `app` alone, as the full decision weighs it: the price is read before any
    /// app's opportunity is kept and the calibration's chances do not move within a decision, so
    /// the apps weighed before it change nothing of its.
    @_specialize(where Predictor == CountsPredictor)
    @_specialize(where Predictor == APPMPredictor)
    @_specialize(where Predictor == HabitsPredictor)
    @_specialize(where Predictor == LearnedPredictor)
    @_specialize(where Predictor == MixPredictor)
    @_specialize(where Predictor == Mix2Predictor)
    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision,
                       weighingOnly app: Int32) {
        guard let (moment, shared) = Self.moment(point, view: view) else { return }
        var price: Double? = nil
        guard app != moment.opened, let k = view.index[app], view.weighed.contains(k) else { return }
        if weigh(view.apps[Int(k)], at: moment, shared: shared, view: view, state: &state, price: &price).fetch {
            decision.fetches.append(app)
        }
    }

    /// The moment `point` is for the predictor, and whether a wake is under way there (the radio
    /// is awake, so a fetch need not wake it); nil where the rule does not decide.
    static func moment(_ point: DecisionPoint, view: UserView) -> (moment: PredictionMoment, shared: Bool)? {
        let kind: PredictionMoment.Kind, shared: Bool, opened: Int32
        switch point {
        case .tick, .timer: (kind, shared, opened) = (.tick, false, -1)
        case .wake(.screenOn): (kind, shared, opened) = (.unlock, true, -1)
        case .wake(.plugged): (kind, shared, opened) = (.plug, true, -1)
        case .wake: (kind, shared, opened) = (.tick, true, -1)
        case .open(let app): (kind, shared, opened) = (.open, true, app)
        case .contentUpdate: return nil
        }
        return (PredictionMoment(kind: kind, time: view.now.millis, offsetMinutes: view.offsetMinutes, opened: opened), shared)
    }

    /// The rule for one app at one moment: its terms, and whether to fetch it now
    /// (``Assessment/fetch``). `price` is the user's, read at the first app weighed. A decision
    /// keeps what it weighed, to learn the calibration and the price from (`keeps`); a plan's
    /// question does not, and so copies none of it. `slots` is where the family's points share
    /// the moment's scores, and `index` the app's place there.
    @inline(__always)
    func weigh(_ app: AppState, at moment: PredictionMoment, shared: Bool, view: UserView, state: inout UserState,
               price: inout Double?, keeps: Bool = true, index: Int = 0, slots: Range<Int>? = nil) -> Assessment {
        let now = moment.time, horizon = Self.horizon
        let need = app.need(at: now, within: horizon)
        guard case .stale(let stale) = need else { return Assessment(unneeded: need) }
        let score = if let slots, let ticket = state.ticket {
            ticket.score(app.id, index: index, in: slots) { predictor.score(app.id, at: moment, horizon: horizon, state: &state.predictor) }
        } else {
            predictor.score(app.id, at: moment, horizon: horizon, state: &state.predictor)
        }
        guard score > 0 else { return Assessment(stale: stale) }
        let chance = state.calibration.chance(score, kind: moment.kind)
        if keeps { state.calibration.record(score, kind: moment.kind, app: app.id, at: now, horizon: horizon) }
        let lambda = price ?? fixedPrice ?? state.pacing.price(view, share: budgetShare)
        price = lambda
        let value = AdaptivePolicy.value(of: app, chance: chance, stale: stale)
        let cost = AdaptivePolicy.cost(of: app, view: view, sharedWake: shared, megabytePrice: megabytePrice)
        // What fetching now adds, against what it costs: over waiting for a cheaper moment at a tick.
        var a = Assessment(score: score, chance: chance, stale: stale, value: value, costJoules: cost, gain: value, outlay: cost,
                           price: lambda)
        if !shared {
            let q = state.waits.odds(app.id)
            let wake = AdaptivePolicy.cost(of: app, view: view, sharedWake: true, megabytePrice: megabytePrice)
            (a.waitOdds, a.gain, a.outlay) = (q, (1 - q) * value, cost - q * wake)
        }
        if keeps {
            state.pacing.record(a.gain, cost: a.outlay, energy: cost, budget: Double(view.energyBudget) / 1_000_000, at: now)
            // The chance a fetch needed here, in the terms of a chance: the gain is the chance times the worth.
            if Predictor.learnsFromDecisions && chance > 0 {
                let worth = a.gain / chance
                predictor.weighed(bar: lambda * a.outlay / worth, worth: worth, state: &state.predictor)
            }
        }
        return a
    }
}

extension ValueRulePolicy {
    /// A replay under this policy, specialized for each built-in predictor: the rule's decision
    /// runs for every app at every moment, and its generic form looks up type metadata there.
    @_specialize(where Predictor == CountsPredictor)
    @_specialize(where Predictor == APPMPredictor)
    @_specialize(where Predictor == HabitsPredictor)
    @_specialize(where Predictor == LearnedPredictor)
    @_specialize(where Predictor == MixPredictor)
    @_specialize(where Predictor == Mix2Predictor)
    public func replay(scenario: Scenario, seed: UInt64, users: NameTable, apps: NameTable, trace: (any TraceSink)?,
                       archive: (any UserRowArchive)?) -> ReplayDriver {
        ReplayDriver(Replay(policy: self, scenario: scenario, seed: seed, users: users, apps: apps, trace: trace, archive: archive))
    }
}
