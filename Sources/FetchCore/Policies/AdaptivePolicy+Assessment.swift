extension AdaptivePolicy {
    /// Whether an app needs a fetch for the open just ahead (the engine's, shared by every policy).
    package typealias Need = FetchNeed

    /// The terms in which the policy weighs one app at one decision point (``assess(_:at:view:state:)``).
    public struct Assessment: Sendable, Equatable {
        /// The chance of an open a fetch now could rescue, from the moment's own signal (the
        /// session at a screen_on, the successor after an open, the plug-in, the time of week) …
        package var chance: Double
        /// … and from the app's re-open rhythm over the same stretch, where the policy asks it.
        package var reopen: Double?
        /// The chance the open would find stale content.
        package var stale: Double
        /// Expected rescues of a fetch now, before `calibration`.
        public var value: Double
        /// How far the policy believes its model for this user (rescues that came of its
        /// fetches against those it expected).
        package var calibration: Double
        /// The fetch's cost in joules, cellular bytes priced in.
        package var costJoules: Double
        /// The expected rescues a fetch at this cost must bring, at the day's price.
        package var bar: Double
        /// Why the app is not weighed at all, when it is not.
        package var unneeded: Need?

        package var expectedRescues: Double { value * calibration }
        /// Whether the policy asks for the fetch (the engine may still refuse it).
        public var fetch: Bool { unneeded == nil && chance > 0 && AdaptivePolicy.worth(expectedRescues, bar: bar) }
    }
}
