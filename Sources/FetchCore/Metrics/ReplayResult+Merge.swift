extension ReplayResult {
    /// The report of one policy over several disjoint sets of users, as if replayed together:
    /// users sorted by name, days summed (all counts are integers, so any order gives the same).
    public static func merged(_ parts: [ReplayResult]) -> ReplayResult {
        // One part is its own merge (its rows sorted, its days in order): no copy of its rows.
        if parts.count == 1 { return parts[0] }
        var out = parts[0]
        out.perUser = parts.flatMap(\.perUser).sorted { $0.user < $1.user }
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
