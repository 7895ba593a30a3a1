/// A policy a plan can be made under (``PlanningSession``). The engine runs it as it runs any
/// policy; a plan also lets it say, in its own terms, why it would or would not fetch at a wake.
/// Everything a plan needs of a policy is here: the words live with the policy.
public protocol PlanningPolicy: FetchPolicy {
    /// The policy's weighing of one app at one decision point.
    associatedtype Assessment

    /// The habits the plan forecasts the wakes from (when a screen_on, a plug-in or another
    /// app's open is likely), when the policy keeps them; nil when it keeps none, and the
    /// planning session then learns them beside it.
    func habits(in state: UserState) -> UsageModel?

    /// How the policy weighs `app` at `point`, as its decision there would (the state is left
    /// as it is); nil when it does not weigh the app at all.
    func assess(_ app: Int32, at point: DecisionPoint, view: UserView, state: UserState) -> Assessment?

    /// The expected rescues of a fetch and its cost in joules, as assessed.
    func terms(of a: Assessment) -> (expectedRescues: Double, costJoules: Double)

    /// Why the policy would or would not fetch `app` at the wake `e` (of plan kind `kind`), in
    /// words: what its signal says, and how it weighed the fetch; `a` is nil when it did not
    /// weigh the app.
    func explain(_ a: Assessment?, kind: FetchPlan.Trigger.Kind, app: Int32, at e: UsageEvent, state: UserState) -> String

    /// Why the policy plans nothing yet for an app opened `opens` times, or nil when it may.
    func waiting(opens: Int) -> String?

    /// Whether the server of `app` should send a silent push now (a push wakes the app to fetch,
    /// whatever the policy would do), weighed in the policy's own terms, and why. The "no" that
    /// holds whatever the policy (``PushAdvice``) comes first; the state may be updated as a
    /// decision would (a pace kept, for one).
    func advisePush(app: Int32, view: UserView, state: inout UserState) -> PushAdvice

    /// The chance of an open of `app` within `within` after a timed fetch at `time` that the policy
    /// weighs the fetch on, from the state a plan starts in (no event comes while a plan runs on,
    /// so its model stays as it is); nil when it keeps no chance of its own, and the plan states
    /// its habits' chance over the tick there instead.
    func timedChance(of app: Int32, at time: Int64, offsetMinutes: Int, state: UserState) -> (chance: Double, within: Int64)?
}

extension PlanningPolicy {
    public func timedChance(of app: Int32, at time: Int64, offsetMinutes: Int, state: UserState) -> (chance: Double, within: Int64)? {
        nil
    }
}
