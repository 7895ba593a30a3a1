import FetchCore

/// Per app and policy, what a developer asks of an app's background refresh, summed over the
/// users who have the app (``AppRecorder``).
///
/// An app's days for a user run from the local day of its first open or fetch to the user's
/// last day with an open or a fetch of any app. Spreads across users are nearest-rank
/// percentiles of the users' own figures; the gaps between fetches are pooled across users.
/// Figures are rounded as the JSON report rounds its own: fetches per day to 3 places, minutes
/// to 1, shares to 4.
public struct AppReport: Sendable, Encodable {
    public struct Row: Sendable, Encodable, Equatable {
        public var app: String
        public var policy: String
        /// Users who opened or fetched the app.
        public var users: Int
        public var opens: Int
        public var fetches: Int
        /// Fetches per day, across users.
        public var fetchesPerDay: Spread<Double>
        /// The users' days with the app, and those of them with no fetch of it.
        public var days: Int
        public var daysWithoutFetch: Int
        /// The longest run of days without a fetch, of any user.
        public var longestDaysWithoutFetch: Int
        /// Minutes from a user's first open of the app to its first fetch after it, across the
        /// users who opened it and got one; how many opened it and never got one.
        public var firstFetchMinutes: Spread<Double>?
        public var openedNeverFetched: Int
        /// Minutes between a user's successive fetches of the app; nil with no two fetches.
        public var gapMinutes: Quantiles?
        /// Shares of the opens that found fresh content, and that only a fetch made fresh.
        public var freshShare: Double?
        public var rescuedShare: Double?

        enum CodingKeys: String, CodingKey {
            case app, policy, users, opens, fetches, fetchesPerDay, days, daysWithoutFetch, longestDaysWithoutFetch
            case firstFetchMinutes, openedNeverFetched, gapMinutes, freshShare, rescuedShare
        }

        /// Every field, an absent one as `null`, so that each row has the same keys.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(app, forKey: .app)
            try c.encode(policy, forKey: .policy)
            try c.encode(users, forKey: .users)
            try c.encode(opens, forKey: .opens)
            try c.encode(fetches, forKey: .fetches)
            try c.encode(fetchesPerDay, forKey: .fetchesPerDay)
            try c.encode(days, forKey: .days)
            try c.encode(daysWithoutFetch, forKey: .daysWithoutFetch)
            try c.encode(longestDaysWithoutFetch, forKey: .longestDaysWithoutFetch)
            try c.encode(firstFetchMinutes, forKey: .firstFetchMinutes)
            try c.encode(openedNeverFetched, forKey: .openedNeverFetched)
            try c.encode(gapMinutes, forKey: .gapMinutes)
            try c.encode(freshShare, forKey: .freshShare)
            try c.encode(rescuedShare, forKey: .rescuedShare)
        }
    }

    /// The 10th, 50th and 90th percentiles of some values.
    public struct Spread<T: Sendable & Encodable & Equatable>: Sendable, Encodable, Equatable {
        public var p10: T
        public var p50: T
        public var p90: T
    }

    /// The 50th and 90th percentiles.
    public struct Quantiles: Sendable, Encodable, Equatable {
        public var p50: Int64
        public var p90: Int64
    }

    /// By app name, then in the order of the recorders' policies.
    public var rows: [Row]

    enum CodingKeys: String, CodingKey { case rows = "apps" }

    /// The report of each policy's recorder (over the same input), of the apps named in `only`
    /// when given.
    public init(_ runs: [(policy: String, recorder: AppRecorder)], only: Set<String>? = nil) {
        var rows: [Row] = []
        for (policy, recorder) in runs {
            for (app, uses) in Dictionary(grouping: recorder.uses, by: { $0.key.app }) {
                let name = recorder.apps[app]
                if let only, !only.contains(name) { continue }
                rows.append(Self.row(name, policy: policy, recorder: recorder, uses: uses.map { (user: $0.key.user, use: $0.value) },
                                     gaps: recorder.gaps[app] ?? [:]))
            }
        }
        let order = Dictionary(runs.enumerated().map { ($1.policy, $0) }, uniquingKeysWith: { a, _ in a })
        self.rows = rows.sorted { ($0.app, order[$0.policy] ?? 0) < ($1.app, order[$1.policy] ?? 0) }
    }

    static func row(_ app: String, policy: String, recorder: AppRecorder, uses: [(user: Int32, use: AppRecorder.Use)], gaps: [Int64: Int]) -> Row {
        var perDay: [Double] = [], firstFetch: [Double] = []
        var days = 0, idle = 0, longest = 0, never = 0
        for (user, u) in uses {
            let span = Int((recorder.lastDay[user] ?? u.firstDay) - u.firstDay + 1)
            days += span
            idle += span - u.fetchDays
            perDay.append(round(Double(u.fetches) / Double(span), 3))
            let last = u.firstDay + Int64(span) - 1
            if let first = u.firstFetchDay, let final = u.lastFetchDay {
                longest = max(longest, u.longestBetween, Int(first - u.firstDay), Int(last - final))
            } else {
                longest = max(longest, span)
            }
            if u.firstOpen != nil {
                if let wait = u.firstFetchAfterOpen { firstFetch.append(round(Double(wait) / Double(Millis.minute), 1)) } else { never += 1 }
            }
        }
        let opens = uses.reduce(0) { $0 + $1.use.opens }
        return Row(app: app, policy: policy, users: uses.count, opens: opens, fetches: uses.reduce(0) { $0 + $1.use.fetches },
                   fetchesPerDay: spread(perDay)!, days: days, daysWithoutFetch: idle, longestDaysWithoutFetch: longest,
                   firstFetchMinutes: spread(firstFetch), openedNeverFetched: never, gapMinutes: quantiles(gaps),
                   freshShare: opens == 0 ? nil : round(Double(uses.reduce(0) { $0 + $1.use.fresh }) / Double(opens), 4),
                   rescuedShare: opens == 0 ? nil : round(Double(uses.reduce(0) { $0 + $1.use.rescued }) / Double(opens), 4))
    }

    /// Nearest-rank percentile `p` (0 < p ≤ 1) of sorted values.
    static func percentile<T>(_ sorted: [T], _ p: Double) -> T {
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    static func spread(_ values: [Double]) -> Spread<Double>? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        return Spread(p10: percentile(s, 0.1), p50: percentile(s, 0.5), p90: percentile(s, 0.9))
    }

    /// The 50th and 90th nearest-rank percentiles of values given as value: count.
    static func quantiles(_ counts: [Int64: Int]) -> Quantiles? {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return nil }
        func at(_ p: Double) -> Int64 {
            let rank = max(1, Int((p * Double(total)).rounded(.up)))
            var seen = 0
            for (value, n) in counts.sorted(by: { $0.key < $1.key }) {
                seen += n
                if seen >= rank { return value }
            }
            return counts.keys.max()!
        }
        return Quantiles(p50: at(0.5), p90: at(0.9))
    }
}
