extension AdaptivePolicy {
    /// Whether an app needs a fetch for the open just ahead (the engine's, shared by every policy).
    public typealias Need = FetchNeed

    /// The terms in which the policy weighs one app at one decision point (``assess(_:at:view:state:)``).
    public struct Assessment: Sendable, Equatable {
        /// The chance of an open a fetch now could rescue, from the moment's own signal (the
        /// session at a screen_on, the successor after an open, the plug-in, the time of week) …
        public var chance: Double
        /// … and from the app's re-open rhythm over the same stretch, where the policy asks it.
        public var reopen: Double?
        /// The chance the open would find stale content.
        public var stale: Double
        /// Expected rescues of a fetch now, before ``calibration``.
        public var value: Double
        /// How far the policy believes its model for this user (rescues that came of its
        /// fetches against those it expected).
        public var calibration: Double
        /// The fetch's cost in joules, cellular bytes priced in.
        public var costJoules: Double
        /// The expected rescues a fetch at this cost must bring, at the day's price.
        public var bar: Double
        /// Why the app is not weighed at all, when it is not.
        public var unneeded: Need?

        public var expectedRescues: Double { value * calibration }
        /// Whether the policy asks for the fetch (the engine may still refuse it).
        public var fetch: Bool { unneeded == nil && chance > 0 && AdaptivePolicy.worth(expectedRescues, bar: bar) }
    }
}
