extension ValueRulePolicy {
    public typealias Assessment = ValueRuleAssessment
}

/// The terms in which the value rule (``ValueRulePolicy``) weighs one app at one moment: what the
/// decision reads, and what a plan's reason says.
///
/// One type for every predictor, not one nested in the generic policy: a plan's code is not
/// specialized for the predictor, and a nested type's metadata was looked up at every app weighed.
public struct ValueRuleAssessment: Sendable, Equatable {
    /// The predictor's score of an open within the horizon (0: it gives the app no chance) …
    package var score = 0.0
    /// … and the chance it makes for this user, calibrated on the user's own opens.
    package var chance = 0.0
    /// The chance the open would find stale content.
    package var stale = 0.0
    /// Expected rescues of a fetch now: the chance, the staleness and the app's record of fetches.
    public var value = 0.0
    /// The fetch's cost in joules, cellular bytes priced in.
    package var costJoules = 0.0
    /// At a tick, the chance that a cheaper moment comes before the open (``WaitOdds``); nil at a wake.
    package var waitOdds: Double?
    /// What fetching now adds over waiting, and what it costs more (the value and the cost at a wake).
    package var gain = 0.0
    package var outlay = 0.0
    /// The user's price: expected rescues a joule must buy.
    package var price = 0.0
    /// Why the app is not weighed at all, when it is not.
    package var unneeded: FetchNeed?

    /// Whether the rule asks for the fetch (the engine may still refuse it).
    public var fetch: Bool { unneeded == nil && score > 0 && gain >= price * outlay }
}
