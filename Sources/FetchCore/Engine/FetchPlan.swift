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
        /// … with this probability.
        public var probability: Double
        /// Energy the device had spent that local day before this fetch.
        public var energyUsedBefore: Int64
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
    /// Why the plan is empty, when it is.
    public var reason: String?
}
