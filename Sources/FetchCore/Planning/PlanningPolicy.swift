/// A policy a plan can be made under (``PlanningSession``). The engine runs it as it runs any
/// policy; a plan also reads what it has learned of the user (to forecast the wakes and give
/// each fetch the chance of its open) and lets it say, in its own terms, why it would or would
/// not fetch at a wake.
public protocol PlanningPolicy: FetchPolicy {
    /// The policy's weighing of one app at one decision point.
    associatedtype Assessment

    /// What the policy has learned of the user's habits so far.
    func model(in state: UserState) -> UsageModel

    /// How the policy weighs `app` at `point`, as its decision there would (the state is left
    /// as it is); nil when it does not weigh the app at all.
    func assess(_ app: Int32, at point: DecisionPoint, view: UserView, state: UserState) -> Assessment?

    /// The expected rescues of a fetch and its cost in joules, as assessed.
    func terms(of a: Assessment) -> (expectedRescues: Double, costJoules: Double)

    /// Why the policy would or would not fetch, in words; `a` is nil when it did not weigh the app.
    func explain(_ a: Assessment?) -> String

    /// Why the policy plans nothing yet for an app opened `opens` times, or nil when it may.
    func waiting(opens: Int) -> String?
}
