import FetchCore

extension ReplayResult {
    /// The report of one policy over several disjoint sets of users, as if replayed together:
    /// users sorted by name, days summed (all counts are integers, so any order gives the same).
    /// Rows that an archive keeps stay there: the merge reads them in name order from their parts.
    public static func merged(_ parts: [ReplayResult]) -> ReplayResult {
        // One part is its own merge (its rows sorted, its days in order): no copy of its rows.
        if parts.count == 1 { return parts[0] }
        var out = parts[0]
        let held = parts.compactMap(\.perUser.held)
        out.perUser = held.count == parts.count ? UserRows(held.flatMap { $0 }.sorted { $0.user < $1.user })
                                                : UserRows(MergedUserRows(parts.map(\.perUser)))
        out.events = parts.reduce(0) { $0 + $1.events }
        var total = Tally()
        for p in parts { total.merge(p.total) }
        out.total = total
        var days: [String: DayRow] = [:]
        for p in parts {
            for d in p.perDay {
                if var row = days[d.date] {
                    row.users += d.users
                    row.tally.merge(d.tally)
                    days[d.date] = row
                } else {
                    days[d.date] = d
                }
            }
        }
        out.perDay = days.keys.sorted().map { days[$0]! }
        return out
    }
}
