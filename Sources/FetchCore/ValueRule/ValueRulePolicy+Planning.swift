/// Plans, wakes and push advice under the value rule: `next`, `serve --policy` and the plan
/// route read the same terms the rule decides by, so a plan's reason is the decision's.
extension ValueRulePolicy: PlanningPolicy {
    /// The habits the predictor keeps, when it keeps them; the plan learns its own beside another.
    public func habits(in state: UserState) -> UsageModel? { predictor.habits(in: state.predictor) }

    @_specialize(where Predictor == CountsPredictor)
    @_specialize(where Predictor == APPMPredictor)
    @_specialize(where Predictor == HabitsPredictor)
    @_specialize(where Predictor == LearnedPredictor)
    @_specialize(where Predictor == MixPredictor)
    @_specialize(where Predictor == Mix2Predictor)
    public func assess(_ app: Int32, at point: DecisionPoint, view: UserView, state: UserState) -> Assessment? {
        guard let (moment, shared) = Self.moment(point, view: view), let a = view.app(app), a.opens >= 1, app != moment.opened else {
            return nil
        }
        var state = state, price: Double? = nil
        return weigh(a, at: moment, shared: shared, view: view, state: &state, price: &price, keeps: false)
    }

    public func terms(of a: Assessment) -> (expectedRescues: Double, costJoules: Double) { (a.value, a.costJoules) }

    /// The predictor's score at a tick, calibrated for the user as a decision there calibrates it:
    /// the chance of an open within the rule's horizon.
    public func timedChance(of app: Int32, at time: Int64, offsetMinutes: Int, state: UserState) -> (chance: Double, within: Int64)? {
        var predictor = state.predictor
        let moment = PredictionMoment(kind: .tick, time: time, offsetMinutes: offsetMinutes)
        let score = self.predictor.score(app, at: moment, horizon: Self.horizon, state: &predictor)
        return (score > 0 ? state.calibration.chance(score, kind: .tick) : 0, Self.horizon)
    }

    public func explain(_ a: Assessment?, kind: FetchPlan.Trigger.Kind, app: Int32, at e: UsageEvent, state: UserState) -> String {
        guard let a else { return "the value rule does not weigh it then (it weighs an app once opened, and not at its own open)" }
        if let why = a.unneeded?.why { return "no fetch needed: \(why)" }
        let percent = TriggerReason.percent, within = DurationText.format(Self.horizon)
        guard a.score > 0 else { return "the \(Predictor.name) model gives it no chance of an open within \(within)" }
        var out = "the \(Predictor.name) model scores an open of it within \(within) at \(percent(a.score))%, "
            + "which this user's own opens make a \(percent(a.chance))% chance; "
        if a.stale < 0.995 { out += "its content would be stale at \(percent(a.stale))%; " }
        // Three decimals: the rule's bars are often hundredths, and two showed "0.01 below the 0.01".
        if let q = a.waitOdds {
            out += "a cheaper moment came before \(percent(q))% of its opens, so a fetch now adds "
                + "\(ResultText.fixed(a.gain, 3)) expected rescues over waiting for \(ResultText.fixed(a.outlay, 1)) J more "
                + "(the rule's cost of a typical fetch of it), "
        } else {
            out += "\(ResultText.fixed(a.gain, 3)) expected rescues for \(ResultText.fixed(a.outlay, 1)) J "
                + "(the rule's cost of a typical fetch of it), "
        }
        out += a.fetch ? "at least" : "below"
        out += " the \(ResultText.fixed(a.price * a.outlay, 3)) needed at "
        out += fixedPrice == nil ? "the user's price for \(percent(budgetShare))% of the budget" : "the price for every user"
        return out
    }

    public func waiting(opens: Int) -> String? {
        opens < 1 ? "the value rule weighs an app once the user has opened it" : nil
    }

    /// A push when the fetch it wakes is worth its energy at the user's price, the last free slots
    /// of the hour dearer (as `adaptive-v1` weighs a push). The predictor's chance of an open
    /// until the next update is likely (``OpenPredictor/pushChance(_:at:span:state:)``) is read as
    /// it is: the user's calibration is of the rule's horizon, not of hours.
    public func advisePush(app id: Int32, view: UserView, state: inout UserState) -> PushAdvice {
        let app: AppState, mean: Int64
        switch PushAdvice.weighable(id, view: view) {
        case .failure(let no): return no.advice
        case .success(let weighable): (app, mean) = weighable
        }
        var advice = PushAdvice.no("", view: view)
        guard app.opens >= 1 else {
            advice.reason = "the user has not opened this app yet"
            return advice
        }
        let horizon = PushAdvice.horizon(mean: mean)
        let moment = PredictionMoment(kind: .tick, time: view.now.millis, offsetMinutes: view.offsetMinutes)
        advice.probability = predictor.pushChance(id, at: moment, span: horizon, state: &state.predictor)
        advice.value = AdaptivePolicy.value(of: app, chance: advice.probability, stale: 1)
        advice.cost = AdaptivePolicy.cost(of: app, view: view, sharedWake: false, megabytePrice: megabytePrice)
        let price = fixedPrice ?? state.pacing.price(view, share: budgetShare)
        let scarcity = Double(max(1, view.scenario.silentPushesPerHour)) / Double(view.silentPushesLeft)
        advice.push = advice.probability > 0 && advice.value >= price * scarcity * advice.cost
        let percent = TriggerReason.percent(advice.probability), span = DurationText.format(horizon)
        advice.reason = advice.push
            ? "an open within \(span) is \(percent)% likely by the \(Predictor.name) model: worth a fetch of "
                + "\(ResultText.fixed(advice.cost, 1)) J and one of \(view.silentPushesLeft) silent pushes left this hour"
            : "an open within \(span) is only \(percent)% likely by the \(Predictor.name) model: not worth "
                + "\(ResultText.fixed(advice.cost, 1)) J and a silent push"
        return advice
    }
}
