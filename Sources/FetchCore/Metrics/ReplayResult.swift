/// The outcome of one policy over some logs: totals, per user, per local day.
public struct ReplayResult: Sendable {
    public struct UserRow: Sendable, Codable, Equatable {
        public var user: String
        /// Local days with a log event, a fetch or a refused request.
        public var days: Int
        public var tally: Tally

        package init(user: String, days: Int, tally: Tally) {
            self.user = user
            self.days = days
            self.tally = tally
        }
    }

    public struct DayRow: Sendable, Codable, Equatable {
        public var date: String
        /// Users with a log event, a fetch or a refused request that day.
        public var users: Int
        public var tally: Tally

        package init(date: String, users: Int, tally: Tally) {
            self.date = date
            self.users = users
            self.tally = tally
        }
    }

    public var policy: String
    public var seed: UInt64
    public var scenario: Scenario
    public var events: Int
    public var total: Tally
    /// In name order; kept in memory, or by an archive (``UserRows``).
    public var perUser: UserRows
    public var perDay: [DayRow]
    /// Rows the reader skipped (with `--skip-invalid`), by reason.
    public var skipped: [String: Int] = [:]

    public init(policy: String, seed: UInt64, scenario: Scenario, events: Int, total: Tally,
                perUser: UserRows, perDay: [DayRow], skipped: [String: Int] = [:]) {
        self.policy = policy
        self.seed = seed
        self.scenario = scenario
        self.events = events
        self.total = total
        self.perUser = perUser
        self.perDay = perDay
        self.skipped = skipped
    }

    public var freshRate: Double { total.opens == 0 ? 0 : Double(total.freshOpens) / Double(total.opens) }
    public var violations: Int64 { total.violations.wrappedSum() }

    /// The energy budget of a day's users together (at least one), in microjoules; a `Double`,
    /// as a merged report's user count times the budget need not fit in `Int64`.
    public func energyBudgetMicroJ(of day: DayRow) -> Double {
        Double(scenario.energyBudgetMicroJ) * Double(max(1, day.users))
    }
}
