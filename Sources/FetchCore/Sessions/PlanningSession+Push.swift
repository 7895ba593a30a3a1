extension PlanningSession {
    /// Whether the app's server should send a silent push now (at `at`, nil: the last event),
    /// as the session's policy advises (``PlanningPolicy/advisePush(app:view:state:)``); nil
    /// before any event or when `at` is not ``reachable(_:)``.
    public func pushAdvice(app: String, at: Int64?) -> PushAdvice? {
        guard let live = sim, reachable(at ?? lastEventTime) else { return nil }
        let sim = projection(of: live, to: at ?? lastEventTime)
        sim.state.now = max(sim.state.now, at ?? lastEventTime)
        guard let id = apps.existingID(app) else {
            return PushAdvice(push: false, reason: "the user has not used this app yet", probability: 0, value: 0,
                              cost: 0, silentPushesLeft: planner.scenario.silentPushesPerHour)
        }
        let view = sim.makeView(pushesLeft: sim.silentPushesLeft(id))
        return planner.policy.advisePush(app: id, view: view, state: &sim.state.policy)
    }
}
