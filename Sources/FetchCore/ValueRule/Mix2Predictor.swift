/// The counts and `adaptive`'s habits, weighed per user as ``MixPredictor`` weighs its three
/// (`PredictorMixture`): the rule over it, `ev-mix2`, is the mixture without `appm`'s sequence,
/// the member that costs most to ask at every app.
public struct Mix2Predictor: OpenPredictor {
    public struct State: Sendable {
        var counts = CountsPredictor().makeState()
        var habits = HabitsPredictor().makeState()
        package var mixture = PredictorMixture(members: 2, longest: OpenLearner.policyHorizon)
    }

    public static var name: String { "mix2" }
    public static var learnsFromDecisions: Bool { true }
    public init() {}
    public func makeState() -> State { State() }

    public func observe(_ event: UsageEvent, state: inout State) {
        state.mixture.observe(event)
        CountsPredictor().observe(event, state: &state.counts)
        HabitsPredictor().observe(event, state: &state.habits)
    }

    public func habits(in state: State) -> UsageModel? { state.habits.model }

    public func score(_ app: Int32, at m: PredictionMoment, horizon: Int64, state: inout State) -> Double {
        let s = SIMD4(CountsPredictor().score(app, at: m, horizon: horizon, state: &state.counts),
                      HabitsPredictor().score(app, at: m, horizon: horizon, state: &state.habits), 0, 0)
        guard s.max() > 0 else { return 0 }
        return state.mixture.mix(s, kind: m.kind, app: app, at: m.time, horizon: horizon)
    }

    public func weighed(bar: Double, worth: Double, state: inout State) {
        state.mixture.weighed(bar: bar, worth: worth)
    }

    public func pushChance(_ app: Int32, at m: PredictionMoment, span: Int64, state: inout State) -> Double {
        state.mixture.mixed(SIMD4(CountsPredictor().pushChance(app, at: m, span: span, state: &state.counts),
                                  HabitsPredictor().pushChance(app, at: m, span: span, state: &state.habits), 0, 0))
    }
}
