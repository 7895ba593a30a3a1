/// Plans silent pushes from the app's server (docs/background-paths.md): the server
/// knows when its content changes, so at each update of an `updates` app it asks whether a
/// push now is worth it for this user — the user's predicted opens before the next update,
/// against a fetch's cost and the push's place in the hourly rate limit.
///
/// `push-adaptive` only pushes; `adaptive+push` also fetches in the background as `adaptive`
/// does. Both learn the same usage model as `adaptive`.
package struct PushAdaptivePolicy: FetchPolicy {
    public typealias UserState = AdaptivePolicy.UserState

    /// The background-fetch side; nil for push only.
    package var fetching: AdaptivePolicy?
    public let name: String

    public init(alsoFetch: Bool) {
        fetching = alsoFetch ? AdaptivePolicy() : nil
        name = alsoFetch ? "adaptive+push" : "push-adaptive"
    }

    public static var observesEvents: Bool { true }
    package static var plansPushes: Bool { true }
    public func makeState() -> UserState { UserState() }

    public func observe(_ event: UsageEvent, state: inout UserState) {
        state.model.observe(event)
    }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision) {
        if case .contentUpdate(let app) = point {
            if advise(app: app, view: view, state: &state).push { decision.pushes.append(app) }
            return
        }
        fetching?.decide(point, view: view, state: &state, decision: &decision)
    }

    /// Whether a silent push to `app` now is worth it, and why.
    package typealias Advice = PushAdvice

    package func advise(app id: Int32, view: UserView, state: inout UserState) -> Advice {
        let app: AppState, mean: Int64
        switch PushAdvice.weighable(id, view: view) {
        case .failure(let no): return no.advice
        case .success(let weighable): (app, mean) = weighable
        }
        var advice = PushAdvice.no("", view: view)
        let now = view.now.millis
        let model = state.model
        guard model.sessionTotal > 0, app.opens >= 2 else {
            advice.reason = "too little history of this user and app (cold start)"
            return advice
        }
        let horizon = PushAdvice.horizon(mean: mean)
        advice.probability = model.openProbability(id, from: now, span: horizon, offsetMinutes: view.offsetMinutes)
        // Priced as `adaptive` prices a fetch: its minimum, dual price, pace and calibration.
        advice.value = AdaptivePolicy.value(of: app, chance: advice.probability, stale: 1) * state.calibration
        let pricing = fetching ?? AdaptivePolicy()
        let pace = pricing.pace(view, &state)
        advice.cost = AdaptivePolicy.cost(of: app, view: view, sharedWake: false, megabytePrice: pricing.megabytePrice * pace)
        // The last free slots of the hour are dearer: a later update may need them more.
        let scarcity = Double(max(1, view.scenario.silentPushesPerHour)) / Double(view.silentPushesLeft)
        advice.push = advice.value >= pricing.minimum(view) * pace * scarcity * advice.cost
        let percent = Int((advice.probability * 100).rounded())
        advice.reason = advice.push
            ? "an open within \(DurationText.format(horizon)) is \(percent)% likely and would find stale content: worth a fetch of \(ResultText.fixed(advice.cost, 1)) J and one of \(view.silentPushesLeft) silent pushes left this hour"
            : "an open within \(DurationText.format(horizon)) is only \(percent)% likely: not worth \(ResultText.fixed(advice.cost, 1)) J and a silent push"
        return advice
    }
}
