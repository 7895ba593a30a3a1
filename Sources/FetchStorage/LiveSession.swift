import FetchCore

/// A user's planning session seen without its policy's type: what a service keeps for each
/// user and asks of it, whichever ``PlanningPolicy`` it plans under. ``PlanningSession`` is one;
/// each call runs the code of the session's own policy.
public protocol LiveSession: AnyObject {
    /// The app names the session's events use.
    var apps: NameTable { get }
    /// The user's id in the session's events, nil before the first.
    var userID: Int32? { get }
    /// The time of the last event received, `Int64.min` before the first.
    var lastEventTime: Int64 { get }
    /// The policy the session plans under, by name.
    var policyName: String { get }

    func receive(_ e: UsageEvent)
    func report(_ f: FetchReport, user id: Int32)
    func reachable(_ t: Int64) -> Bool
    func budget(at: Int64?) -> BudgetState?
    func wake(_ kind: WakeKind, at: Int64?) -> WakeDecision?
    func plan(app: String, at: Int64?, horizon: Int64) -> FetchPlan
    func planJSON(app: String, at: Int64?, horizon: Int64, naming user: String) throws -> String
    func pushAdvice(app: String, at: Int64?) -> PushAdvice?
}

extension PlanningSession: LiveSession {
    public var policyName: String { planner.policy.name }
}
