extension AdaptivePolicy {
    /// ``evaluate(_:_:view:horizon:calibration:state:paced:stretch:note:)`` with the learned chance: the
    /// learner's chance of a stale open of the app within the content window, weighed against
    /// the fetch's cost at the day's price as the habits' chance is. Each app weighed becomes an
    /// example the learner learns from once the window has closed.
    func learnedValue(_ app: AppState, _ point: DecisionPoint, view: UserView, stale: Double, calibration: Double,
                      state: inout UserState, paced: inout Double?, note: ((Assessment) -> Void)?) -> Double? {
        let now = view.now.millis
        guard let moment = PredictionMoment(point, time: now, offsetMinutes: view.offsetMinutes), moment.opened != app.id,
              let p = state.learner?.predict(app.id, at: moment, model: state.model,
                                             horizon: OpenLearner.policyHorizon) else { return nil }
        let pace = paced ?? self.pace(view, &state)
        paced = pace
        let sharedWake: Bool
        switch point {
        case .wake, .open: sharedWake = true
        case .tick, .timer, .contentUpdate: sharedWake = false
        }
        let cost = Self.cost(of: app, view: view, sharedWake: sharedWake, megabytePrice: megabytePrice * pace)
        let bar = minimum(view) * pace * cost
        let value = Self.value(of: app, chance: p, stale: stale)
        note?(Assessment(chance: p, reopen: nil, stale: stale, value: value, calibration: calibration, costJoules: cost, bar: bar,
                         unneeded: nil))
        return Self.worth(value * calibration, bar: bar) ? value : nil
    }

    /// With `population`, the learned model starts from the user's prior there.
    public func makeState(userHash: UInt64) -> UserState {
        var state = makeState()
        if learns, let prior = population?[userHash] { state.learner = OpenLearner(prior: prior) }
        return state
    }

    public func learning(from population: PopulationPriors) -> AdaptivePolicy {
        guard learns else { return self }
        var p = self
        p.population = population
        return p
    }
}
