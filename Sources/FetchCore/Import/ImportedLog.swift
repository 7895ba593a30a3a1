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
    /// with the foreground rules applied and exact duplicates removed. Each line goes to `write`
    /// as it is made, and the rows are released as they are sorted, so memory holds the rows
    /// once (and one user's at a time twice), not the log's text beside them.
    public mutating func canonical(rules: ForegroundRules, write: (String) -> Void) -> Int {
        let order = rows.indices.sorted { a, b in Self.precedes(rows[a], a, rows[b], b) }
        var sorted: [ImportedRow] = []
        sorted.reserveCapacity(rows.count)
        // The rows of the instant at hand, to find a row read twice (a file given twice, dumps
        // that overlap) wherever it falls among the others of its instant.
        var instant: [ImportedRow.Kind] = []
        for i in order {
            let row = rows[i]
            if let last = sorted.last, last.user == row.user, last.millis == row.millis {
                if instant.contains(row.kind) { ignore("duplicate row"); continue }
            } else {
                instant.removeAll(keepingCapacity: true)
            }
            instant.append(row.kind)
            sorted.append(row)
        }
        rows = []
        write(CSVLineParser.header)
        var dropped = 0, events = 0
        var start = sorted.startIndex
        while start < sorted.endIndex {
            let user = sorted[start].user
            let end = sorted[start...].firstIndex { $0.user != user } ?? sorted.endIndex
            for row in rules.apply(Array(sorted[start..<end]), dropped: &dropped) {
                guard case .event(let kind, let app, let value) = row.kind else { continue }
                write([LocalTime.isoText(row.millis, offsetMinutes: row.offsetMinutes), CSVField.text(user),
                       CSVField.text(app), kind.logName, CSVField.text(value)].joined(separator: ","))
                events += 1
            }
            start = end
        }
        if dropped > 0 { ignored["launcher, overlay or repeated foreground move", default: 0] += dropped }
        return events
    }

    /// The canonical log's lines at once (``canonical(rules:write:)``).
    public mutating func canonical(rules: ForegroundRules) -> (text: [String], events: Int) {
        var lines: [String] = []
        let events = canonical(rules: rules) { lines.append($0) }
        return (lines, events)
    }

    /// The order of rows: by user, time, then as read. Rows of one instant keep the order of
    /// the file, the order the device recorded them in: ordered any other way, an app that
    /// stayed in front would seem to come back after another app's move of the same instant,
    /// an open invented and the next one merged. (Files are read in an order of their own kind:
    /// AWARE's foreground table before its other tables.) Compared in place, without a key per row.
    static func precedes(_ a: ImportedRow, _ i: Int, _ b: ImportedRow, _ j: Int) -> Bool {
        if a.user != b.user { return a.user < b.user }
        if a.millis != b.millis { return a.millis < b.millis }
        return i < j
    }
}
