/// The outcome of one policy over some logs: totals, per user, per local day.
public struct ReplayResult: Sendable {
    public struct UserRow: Sendable {
        public var user: String
        /// Local days with a log event, a fetch or a refused request.
        public var days: Int
        public var tally: Tally
    }

    public struct DayRow: Sendable {
        public var date: String
        /// Users with a log event, a fetch or a refused request that day.
        public var users: Int
        public var tally: Tally
    }

    public var policy: String
    public var seed: UInt64
    public var scenario: Scenario
    public var events: Int
    public var total: Tally
    public var perUser: [UserRow]
    public var perDay: [DayRow]
    /// Rows the reader skipped (with `--skip-invalid`), by reason.
    public var skipped: [String: Int] = [:]

    public var freshRate: Double { total.opens == 0 ? 0 : Double(total.freshOpens) / Double(total.opens) }
    public var violations: Int64 { total.violations.wrappedSum() }
}
