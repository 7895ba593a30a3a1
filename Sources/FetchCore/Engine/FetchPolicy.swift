/// A scheduling policy: at each decision point it looks at a read-only view of one user's
/// device and apps and says which apps to fetch now; the engine performs the fetches and
/// enforces every hard rule whatever the policy asks.
///
/// A policy value is configuration shared by all users; what it learns about one user lives
/// in its `UserState`, which the engine keeps beside that user and hands back at every call.
public protocol FetchPolicy: Sendable {
    associatedtype UserState

    /// The name shown in reports, e.g. `fixed:15m`.
    var name: String { get }

    /// How far past `now` the engine must show this policy the log, in milliseconds.
    /// Zero for every real policy; only the oracle sees the future.
    var lookahead: Int64 { get }

    func makeState() -> UserState

    /// The state of the user whose name hashes to `userHash` (``StableHash``); the default is
    /// ``makeState()``. A policy whose state depends on who the user is (a prior fitted on the
    /// other users of a population, ``PopulationPriors``) picks it here.
    func makeState(userHash: UInt64) -> UserState

    /// The policy starting each user's learned model from `population`'s prior for that user;
    /// the default, for a policy that learns no such model, is the policy as it is.
    func learning(from population: PopulationPriors) -> Self

    /// Whether the engine should call `observe` at all.
    static var observesEvents: Bool { get }

    /// Whether the policy plans server pushes: then the engine also asks it at every content
    /// update of an `updates` app (``DecisionPoint/contentUpdate(app:)``).
    static var plansPushes: Bool { get }

    /// Sees every log event of the user, before any decision at that instant: the hook where
    /// a learning policy updates its model. The default does nothing.
    func observe(_ event: UsageEvent, state: inout UserState)

    /// Decides what to fetch at `point`. Appends app ids to `decision.fetches` and may set
    /// `decision.wakeAt` to be called again at a moment of its choosing.
    func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision)

    /// Decides at `point` as ``decide(_:view:state:decision:)`` would for `app`, weighing that app
    /// alone where the policy can: `decision.fetches` holds `app` exactly when the full decision's
    /// would. A plan supposing a wake asks it for the one app the plan is of (the engine does so
    /// only where no other app's fetch could change that app's). The default decides for every app.
    func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision, weighingOnly app: Int32)

    /// A replay under this policy. Policies keep the default (``Replay``); it is a requirement
    /// so that a policy held as `any FetchPolicy` replays through code specialized for its
    /// own type, found in its witness table, and the engine lists no policy by name.
    func replay(scenario: Scenario, seed: UInt64, users: NameTable, apps: NameTable, trace: (any TraceSink)?,
                archive: (any UserRowArchive)?) -> ReplayDriver
}

extension FetchPolicy {
    public func makeState(userHash: UInt64) -> UserState { makeState() }
    public func learning(from population: PopulationPriors) -> Self { self }
    public var lookahead: Int64 { 0 }
    public static var observesEvents: Bool { false }
    public static var plansPushes: Bool { false }
    public func observe(_ event: UsageEvent, state: inout UserState) {}
    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision,
                       weighingOnly app: Int32) {
        decide(point, view: view, state: &state, decision: &decision)
    }
}

/// What a policy wants done; reused between calls, so append rather than assign.
public struct Decision: Sendable {
    public var fetches: [Int32] = []
    /// Silent pushes the app's server should send now (they go through the rate limit).
    public var pushes: [Int32] = []
    /// When to ask this policy again (replaces any earlier request), nil to leave it as it is.
    public var wakeAt: Instant? = nil

    public init() {}
}
