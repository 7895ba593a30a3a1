/// Answers "when should this app fetch next, and why": replays one user's log up to a moment
/// under the `adaptive` policy, then lets the same engine run on through the horizon with no
/// further events and collects the fetches it starts. The plan is therefore exactly what a
/// replay would do from that moment if the user did nothing meanwhile. What the policy would do
/// at a screen_on, a plug-in or an open cannot be timed; the plan lists it as triggers instead
/// (``FetchPlan/Trigger``).
public struct FetchPlanner<P: PlanningPolicy>: Sendable {
    public let scenario: Scenario
    public let seed: UInt64
    public let policy: P

    public init(scenario: Scenario, seed: UInt64, policy: P) {
        self.scenario = scenario
        self.seed = seed
        self.policy = policy
    }

    /// Plans fetches of `app` for `user` over `(at, at + horizon]`; `at` nil means the user's
    /// last event. Events of other users, and events after `at`, are ignored.
    @inlinable
    public func plan<S: UsageEventSource>(_ source: inout S, user: String, app: String, at: Instant?,
                                          horizon: Int64) throws -> FetchPlan {
        // Asked once: nothing to keep for a question asked again or another app's plan.
        try session(&source, user: user, through: at).planAnew(app: app, at: at?.millis, horizon: horizon)
    }

    /// A planning session fed with `user`'s events up to and including `through` (all when nil).
    ///
    /// Inlinable, so that a caller's concrete policy and source reach the session's specialized
    /// code (``PlanningSession/receive(_:)``) rather than the engine's generic one.
    @inlinable
    public func session<S: UsageEventSource>(_ source: inout S, user: String, through: Instant? = nil) throws -> PlanningSession<P> {
        let session = PlanningSession(planner: self, user: user, apps: source.apps)
        while let e = try source.next() {
            guard source.users[e.user] == user else { continue }
            if let through, e.time > through { break }
            session.receive(e)
        }
        return session
    }
}
