/// Rows gathered from one or more imported files, turned into a canonical usage log.
public struct ImportedLog: Sendable {
    public private(set) var rows: [ImportedRow] = []
    /// Rows read but not carried into the log, by reason (known event types that say nothing
    /// the log keeps, launcher and repeat moves, exact duplicates).
    public private(set) var ignored: [String: Int] = [:]

    public init() {}

    public mutating func append(_ row: ImportedRow) { rows.append(row) }

    public mutating func ignore(_ reason: String) { ignored[reason, default: 0] += 1 }

    /// The canonical log: header, then each user's events in time order (users by name),
    /// with the foreground rules applied and exact duplicates removed.
    public mutating func canonical(rules: ForegroundRules) -> (text: [String], events: Int) {
        // Each row's key is built once, not at every comparison.
        let keys = rows.map(\.sortKey)
        var sorted = rows.indices.sorted { a, b in
            (rows[a].user, rows[a].millis, keys[a], a) < (rows[b].user, rows[b].millis, keys[b], b)
        }.map { rows[$0] }
        var unique: [ImportedRow] = []
        unique.reserveCapacity(sorted.count)
        for row in sorted {
            if let last = unique.last, last.user == row.user, last.millis == row.millis, last.kind == row.kind {
                ignore("duplicate row"); continue
            }
            unique.append(row)
        }
        sorted = []
        var lines = [CSVLineParser.header]
        var dropped = 0, events = 0
        var start = unique.startIndex
        while start < unique.endIndex {
            let user = unique[start].user
            let end = unique[start...].firstIndex { $0.user != user } ?? unique.endIndex
            for row in rules.apply(Array(unique[start..<end]), dropped: &dropped) {
                guard case .event(let kind, let app, let value) = row.kind else { continue }
                lines.append([LocalTime.isoText(row.millis, offsetMinutes: row.offsetMinutes), CSVField.text(user),
                              CSVField.text(app), kind.logName, CSVField.text(value)].joined(separator: ","))
                events += 1
            }
            start = end
        }
        if dropped > 0 { ignored["launcher, overlay or repeated foreground move", default: 0] += dropped }
        return (lines, events)
    }
}
