/// A model of when a user opens each app, as the value rule (``ValueRulePolicy``) reads it: a
/// score per app and moment that the rule calibrates per user into a chance, so that any model
/// `predict` scores can drive the same decisions and be compared by what it buys.
///
/// A score need only rank: higher is likelier. The rule learns, per user and kind of moment,
/// how often an open follows each range of scores (`ChanceCalibration`).
public protocol OpenPredictor: Sendable {
    associatedtype State: Sendable

    /// The predictor's name, as `predict` reports it.
    static var name: String { get }

    /// The name of the value rule's family over it (`ev-<name>` unless it says otherwise).
    static var family: String { get }

    func makeState() -> State

    /// Learns from one log event of the user.
    func observe(_ event: UsageEvent, state: inout State)

    /// A score in 0…1 of an open of `app` within `horizon` after `moment`; 0 when the model gives
    /// it no chance at all (the rule then leaves the app alone).
    func score(_ app: Int32, at moment: PredictionMoment, horizon: Int64, state: inout State) -> Double

    /// The user's habits, when the predictor keeps them (a plan forecasts its wakes from them).
    func habits(in state: State) -> UsageModel?

    /// The chance of an open of `app` within `span` after `moment`, whatever comes before it: what
    /// a fetch a silent push wakes at once would rescue. The score at a tick, unless the predictor
    /// reads it otherwise.
    func pushChance(_ app: Int32, at moment: PredictionMoment, span: Int64, state: inout State) -> Double

    /// What the rule made of the score just given, when it keeps it to learn from: the chance it
    /// needed for a fetch (`bar`) and a rescue's worth there per unit of chance. Nothing, unless the
    /// predictor learns from the rule's decisions.
    func weighed(bar: Double, worth: Double, state: inout State)

    /// Whether the predictor learns from the rule's decisions (``weighed(bar:worth:state:)``): the
    /// rule works out the bar and the worth only for one that does. False unless it says so.
    static var learnsFromDecisions: Bool { get }

    /// Whether points of a swept family share this predictor's scores (``SharedScores``): only
    /// where every value of the predictor scores alike, its state learns from the user's events
    /// alone, and `score` changes nothing of the state but what it keeps to read again. And only
    /// where a score costs more than reading one kept: the counts' and `appm`'s scores are a few
    /// lookups and products, and their sweeps ran no faster sharing them (Benchmarks/RESULTS.md,
    /// "Session 20"). False unless it says so.
    static var sharesScores: Bool { get }
}

extension OpenPredictor {
    public static var family: String { "ev-\(name)" }
    public func habits(in state: State) -> UsageModel? { nil }

    public func pushChance(_ app: Int32, at moment: PredictionMoment, span: Int64, state: inout State) -> Double {
        score(app, at: moment, horizon: span, state: &state)
    }

    @inline(__always)
    public func weighed(bar: Double, worth: Double, state: inout State) {}

    public static var learnsFromDecisions: Bool { false }
    public static var sharesScores: Bool { false }
}

/// The counting baseline's counts (`CountsPolicy.chance(of:at:now:span:offsetMinutes:counts:)`),
/// and at a notification of the app, how often its notifications are followed by its open
/// (``NotificationFollows``): either may bring the open.
public struct CountsPredictor: OpenPredictor {
    public struct State: Sendable {
        public var counts = OpenCounts()
        public var notifications = NotificationFollows()
    }

    public static var name: String { "counts" }
    public init() {}
    public func makeState() -> State { State() }

    public func observe(_ event: UsageEvent, state: inout State) {
        state.counts.observe(event)
        state.notifications.observe(event)
    }

    public func score(_ app: Int32, at m: PredictionMoment, horizon: Int64, state: inout State) -> Double {
        let counted = CountsPolicy.chance(of: app, at: m, counts: state.counts, window: horizon)
        guard state.notifications.posted(app, at: m.time) else { return counted }
        return 1 - (1 - counted) * (1 - state.notifications.followChance(app))
    }
}

/// APPM's sequence model (`APPMPolicy.chance(of:now:span:model:)`): the next app from the last
/// ones opened, times the chance it comes within the horizon.
public struct APPMPredictor: OpenPredictor {
    public static var name: String { "appm" }
    public init() {}
    public func makeState() -> AppSequenceModel { AppSequenceModel() }
    public func observe(_ event: UsageEvent, state: inout AppSequenceModel) { state.observe(event) }

    public func score(_ app: Int32, at m: PredictionMoment, horizon: Int64, state: inout AppSequenceModel) -> Double {
        APPMPolicy.chance(of: app, now: m.time, span: horizon, model: state)
    }
}

/// `adaptive`'s habits (`AdaptivePolicy.predictedChance(_:at:model:staleShare:window:stretch:session:)`).
public struct HabitsPredictor: OpenPredictor {
    public struct State: Sendable {
        public var model = UsageModel()
        /// The time of week over the horizon of the last tick scored, read once for its apps, and
        /// the tick and the count of events it was read at. Kept as the optional the chance takes:
        /// wrapping it anew for each app weighed copied it, which showed in profiles of a replay.
        var stretch: UsageModel.Stretch?
        var stretchTime: Int64 = .min, stretchEvents = -1
        /// The sessions at the last wake or open scored, read once for its apps.
        var session: UsageModel.SessionReading?
    }

    public static var name: String { "habits" }
    /// Its score keeps the stretch and sessions it read, to read again at the same moment and events only.
    public static var sharesScores: Bool { true }
    public init() {}
    public func makeState() -> State { State() }
    public func observe(_ event: UsageEvent, state: inout State) { state.model.observe(event) }
    public func habits(in state: State) -> UsageModel? { state.model }

    /// The habit's chance of an open within the span, as `adaptive-v1` weighs a push: the score at
    /// a tick is of an open no cheaper moment comes before, which a push's fetch need not wait for.
    public func pushChance(_ app: Int32, at m: PredictionMoment, span: Int64, state: inout State) -> Double {
        state.model.openProbability(app, from: m.time, span: span, offsetMinutes: m.offsetMinutes)
    }

    public func score(_ app: Int32, at m: PredictionMoment, horizon: Int64, state: inout State) -> Double {
        guard m.kind == .tick else {
            if state.session?.time != m.time || state.session?.events != state.model.events {
                state.session = state.model.sessionReading(at: m.time, offsetMinutes: m.offsetMinutes, smoothed: true)
            }
            return AdaptivePolicy.predictedChance(app, at: m, model: state.model, staleShare: 1, window: horizon, session: state.session)
        }
        if state.stretch == nil || state.stretchTime != m.time || state.stretchEvents != state.model.events {
            state.stretch = state.model.stretch(from: m.time, span: horizon, offsetMinutes: m.offsetMinutes, smoothed: true)
            (state.stretchTime, state.stretchEvents) = (m.time, state.model.events)
        }
        guard state.stretch!.anyActive else { return 0 }
        return AdaptivePolicy.predictedChance(app, at: m, model: state.model, staleShare: 1, window: horizon, stretch: state.stretch)
    }
}

/// The learned model (``OpenLearner``), starting from the shipped prior and reading the habits
/// it keeps beside it.
public struct LearnedPredictor: OpenPredictor {
    public struct State: Sendable {
        public var model = UsageModel()
        public var learner = OpenLearner(prior: LogisticLearner.policyPrior)
    }

    public static var name: String { "learned" }
    public init() {}
    public func makeState() -> State { State() }

    public func observe(_ event: UsageEvent, state: inout State) {
        state.learner.observe(event)
        state.model.observe(event)
    }

    public func habits(in state: State) -> UsageModel? { state.model }

    public func score(_ app: Int32, at m: PredictionMoment, horizon: Int64, state: inout State) -> Double {
        state.learner.predict(app, at: m, model: state.model, horizon: min(horizon, OpenLearner.defaultWindow))
    }
}
