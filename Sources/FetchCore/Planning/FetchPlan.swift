/// The planned fetches of one app of one user, each with its reason (see ``FetchPlanner``).
public struct FetchPlan: Sendable {
    public struct Entry: Sendable, Equatable {
        public var time: Int64
        public var offsetMinutes: Int
        public var network: Network
        public var energyMicroJ: Int64
        public var bytes: Int64
        /// The open the fetch is for is predicted within `[windowStart, windowEnd]` …
        public var windowStart: Int64
        public var windowEnd: Int64
        /// … with this probability: the share of days with an open there, an open in the
        /// quarter-hour before counting half, shrunk a little toward the sessions the user starts
        /// there (as the adaptive policy reads the time of week).
        public var probability: Double
        /// Energy the device had spent that local day before this fetch.
        public var energyUsedBefore: Int64
    }

    /// What the policy would do at a wake that may come within the horizon: the decision the
    /// engine takes at such a wake at its likeliest moment, from the state at the plan's start
    /// with no other events meanwhile (see ``PlanningSession``).
    public struct Trigger: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case screenOn, plugged
            /// Right after the user opens this other app.
            case open(after: String)
            /// A silent push from the app's server.
            case push
        }

        public var kind: Kind
        /// The chance of such a wake within the horizon …
        public var chance: Double
        /// … likeliest within `[windowStart, windowEnd]` (half of that chance) …
        public var windowStart: Int64
        public var windowEnd: Int64
        /// … and at `time` or earlier with half of it: the moment the decision is taken at.
        public var time: Int64
        public var offsetMinutes: Int
        /// Whether the app is fetched then.
        public var fetch: Bool
        /// The policy (or the push) asks for the fetch, and the engine refuses it by this rule.
        public var refusal: Refusal?
        /// Expected rescues of the fetch and its cost, in the policy's terms: the cost of a typical
        /// fetch of the app then (its median duration and bytes, cellular bytes priced in joules);
        /// zero when the policy does not weigh the app at that moment.
        public var expectedRescues: Double
        public var costJoules: Double
        /// This wake's fetch as the engine draws it, when it runs: its energy and bytes, which may
        /// be more or less than the typical fetch the policy weighed.
        public var energyMicroJ: Int64?
        public var bytes: Int64?
        public var network: Network
        /// Why, in words.
        public var reason: String
    }

    public var user: String
    public var app: String
    public var at: Int64
    public var offsetMinutes = 0
    public var horizon: Int64
    public var interval: FetchInterval
    public var energyBudget: Int64
    public var opens = 0
    public var entries: [Entry] = []
    public var triggers: [Trigger] = []
    /// Why the plan is empty, when it is.
    public var reason: String?
}
