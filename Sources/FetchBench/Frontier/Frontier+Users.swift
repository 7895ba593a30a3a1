import FetchCore

/// The frontiers read user by user: what each family rescues at the energy of each point of the
/// counting baseline and of `appm` on that user's own log, so that a sum carried by a few users
/// cannot hide the others, and the worst user is named.
public struct UserFrontiers: Sendable {
    /// One user's figures: per family, the lowest and highest multiple of each baseline's points
    /// (those spending at most ``budgetShare`` of the user's budget), and the family's rescues at
    /// `oracle:opens`' energy as a multiple of its rescues.
    public struct Row: Sendable {
        public var user: String
        public var days: Int
        public var versus: [String: ClosedRange<Double>]
        public var atOracleOpens: [String: Double]
    }

    /// Baseline points spending more than this share of the user's budget are left out.
    public static let budgetShare = 0.6
    public static let baselines = ["counts", "appm"]
    /// The most users whose rows the table shows (the worst user is named whatever the number).
    public static let maxUsersShown = 64

    public var families: [String]
    public var rows: [Row]

    /// The users of `reports` (the same users in each), read per family.
    public init(_ reports: [ReplayResult], budgetMicroJPerDay: Int64) {
        // Each report's family found once: the registry's names are built anew at each asking,
        // which, asked per user and report, was most of a large population's merge.
        let familyOf = reports.map { Frontier.family(of: $0.policy) }
        let members = Dictionary(grouping: reports.indices.filter { familyOf[$0] != nil }) { familyOf[$0]! }
        families = Frontier.familyNames.filter { members[$0] != nil && !Self.baselines.contains($0) }
        // Only what a curve reads of each user and report, without the rest of the rows (an archive
        // keeps it apart): the rows themselves, every report's at once, held gigabytes for a population.
        let spent = reports.map { r in r.perUser.indices.map { r.perUser.spent(at: $0) } }
        let users = reports.first.map { r in r.perUser.indices.map { (user: r.perUser.user(at: $0), days: spent[0][$0].days) } } ?? []
        let oracleOpens = reports.firstIndex { $0.policy == "oracle:opens" }
        var rows: [Row] = []
        for (u, who) in users.enumerated() {
            var row = Row(user: who.user, days: who.days, versus: [:], atOracleOpens: [:])
            let budget = joules(budgetMicroJPerDay) * Double(who.days)
            func points(_ family: String) -> [Frontier.Point] {
                (members[family] ?? []).map { i in
                    Frontier.Point(policy: reports[i].policy, energyJoules: joules(spent[i][u].energyMicroJ),
                                   rescuedOpens: spent[i][u].rescuedOpens, freshRate: 0)
                }
            }
            for family in families {
                let own = points(family)
                guard own.count >= 2 else { continue }
                let curve = Frontier(family: family, points: own, oracle: nil)
                for b in Self.baselines {
                    let ratios = points(b).filter { $0.rescuedOpens > 0 && $0.energyJoules <= Self.budgetShare * budget }
                        .map { curve.rescued(atEnergy: $0.energyJoules) / Double($0.rescuedOpens) }
                    if let lo = ratios.min(), let hi = ratios.max() { row.versus["\(family)/\(b)"] = lo...hi }
                }
                if let o = oracleOpens.map({ spent[$0][u] }), o.rescuedOpens > 0 {
                    row.atOracleOpens[family] = curve.rescued(atEnergy: joules(o.energyMicroJ)) / Double(o.rescuedOpens)
                }
            }
            rows.append(row)
        }
        self.rows = rows
    }

    /// The user with the lowest multiple in `column` (`family/baseline`), and that multiple.
    public func worst(_ column: String) -> (user: String, ratio: Double)? {
        rows.compactMap { r in r.versus[column].map { (r.user, $0.lowerBound) } }.min { $0.1 < $1.1 }
    }

    /// The columns with a figure for some user, family by family.
    public var columns: [String] {
        families.flatMap { f in Self.baselines.map { "\(f)/\($0)" } }.filter { c in rows.contains { $0.versus[c] != nil } }
    }
}

extension ResultText {
    /// The per-user table of ``UserFrontiers``, with the worst user of each column named; the
    /// rows only up to ``UserFrontiers/maxUsersShown`` users.
    public static func userFrontiers(_ u: UserFrontiers, markdown: Bool) -> String {
        func shown(_ column: String) -> String { column.split(separator: "/").joined(separator: " ÷ ") }
        let columns = u.columns
        let header = ["user", "days"] + columns.map { c in shown(c) }
            + u.families.map { "\($0) at oracle:opens J" }
        let rows = u.rows.map { r in
            ["\(r.user)", "\(r.days)"] + columns.map { c in r.versus[c].map { "\(fixed($0.lowerBound, 2))–\(fixed($0.upperBound, 2))" } ?? "-" }
                + u.families.map { f in r.atOracleOpens[f].map { fixed($0, 2) } ?? "-" }
        }
        let worst = columns.compactMap { c in u.worst(c).map { "\(shown(c)) \(fixed($0.ratio, 2)) (\($0.user))" } }
        let table = u.rows.count <= UserFrontiers.maxUsersShown ? grid(header, rows, markdown: markdown, leftColumns: [0]) + "\n" : ""
        return table + "Per user: each family's rescued opens at the energy of each baseline point spending at most "
            + "\(Int(UserFrontiers.budgetShare * 100))% of the user's budget, as a multiple of the point's (lowest–highest); "
            + "at oracle:opens J, as a multiple of its rescues. Worst user: " + (worst.isEmpty ? "none" : worst.joined(separator: "; ")) + "\n"
    }
}
