extension CountsPolicy: PlanningPolicy {
    /// How the counting baseline weighs one app at one decision point: the counted chance, the
    /// chance the content is stale, the threshold, and the fetch's cost.
    public struct Assessment: Sendable, Equatable {
        package var chance: Double
        package var stale: Double
        public var threshold: Double
        package var costJoules: Double
        /// Why the app is not weighed at all, when it is not.
        package var unneeded: FetchNeed?

        public var fetch: Bool { unneeded == nil && chance * stale >= threshold }
    }

    /// The counting baseline keeps counts, not habits: the plan learns its own to forecast wakes.
    public func habits(in state: OpenCounts) -> UsageModel? { nil }

    public func assess(_ app: Int32, at point: DecisionPoint, view: UserView, state: OpenCounts) -> Assessment? {
        guard let horizon = Self.horizon(point, tick: view.scenario.tick), let a = view.app(app) else { return nil }
        let shared: Bool = switch point {
        case .wake, .open: true
        case .tick, .timer, .contentUpdate: false
        }
        let cost = view.fetchJoules(of: a, sharedWake: shared), now = view.now.millis
        guard case .stale(let stale) = a.need(at: now, within: horizon) else {
            return Assessment(chance: 0, stale: 0, threshold: threshold, costJoules: cost, unneeded: a.need(at: now, within: horizon))
        }
        let chance = Self.chance(of: app, at: point, now: now, span: horizon, offsetMinutes: view.offsetMinutes, counts: state)
        return Assessment(chance: chance, stale: stale, threshold: threshold, costJoules: cost, unneeded: nil)
    }

    public func terms(of a: Assessment) -> (expectedRescues: Double, costJoules: Double) { (a.chance * a.stale, a.costJoules) }

    public func explain(_ a: Assessment?, kind: FetchPlan.Trigger.Kind, app: Int32, at e: UsageEvent, state: OpenCounts) -> String {
        guard let a else { return "the counting policy does not fetch at such a moment" }
        if let why = a.unneeded?.why { return "no fetch needed: \(why)" }
        let percent = TriggerReason.percent
        let counted: String = switch kind {
        case .screenOn: "\(percent(a.chance))% of unlocks were followed by an open of it"
        case .open(let after): "it came after \(after) in \(percent(a.chance))% of its opens"
        case .plugged, .push: "it was opened in this stretch of the day on \(percent(a.chance))% of days"
        }
        let verdict = a.fetch ? "at least" : "below"
        return "\(counted) (counted); \(verdict) the threshold of \(percent(a.threshold))%"
    }

    public func waiting(opens: Int) -> String? { nil }

    /// A push when the share of days with an open of the app until its next update is likely
    /// (counted by time of day) reaches the threshold, as a fetch at a tick would be weighed.
    public func advisePush(app id: Int32, view: UserView, state: inout OpenCounts) -> PushAdvice {
        let app: AppState, mean: Int64
        switch PushAdvice.weighable(id, view: view) {
        case .failure(let no): return no.advice
        case .success(let weighable): (app, mean) = weighable
        }
        let horizon = PushAdvice.horizon(mean: mean), percent = TriggerReason.percent
        let chance = state.slotChance(id, from: view.now.millis, span: horizon, offsetMinutes: view.offsetMinutes)
        var advice = PushAdvice.no("", view: view)
        (advice.probability, advice.value) = (chance, chance)
        advice.cost = view.fetchJoules(of: app, sharedWake: false)
        advice.push = chance >= threshold
        let counted = "it was opened within \(DurationText.format(horizon)) of this time of day on \(percent(chance))% of days (counted)"
        let worth = "worth a fetch of \(ResultText.fixed(advice.cost, 1)) J and one of \(view.silentPushesLeft) silent pushes left this hour"
        advice.reason = advice.push
            ? "\(counted); at least the threshold of \(percent(threshold))%: \(worth)"
            : "\(counted); below the threshold of \(percent(threshold))%: not worth a silent push"
        return advice
    }
}
