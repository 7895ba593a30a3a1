import FetchCore

/// Rows gathered from one or more imported files, turned into a canonical usage log.
public struct ImportedLog: Sendable {
    public private(set) var rows: [ImportedRow] = []
    /// Rows read but not carried into the log, by reason (known event types that say nothing
    /// the log keeps, launcher and repeat moves, exact duplicates).
    public private(set) var ignored: [String: Int] = [:]

    /// Per row, the section it was read in (``beginSection()``).
    private var sections: [Int32] = []
    private var section: Int32 = 0

    public init() {}

    public mutating func append(_ row: ImportedRow) {
        rows.append(row)
        sections.append(section)
    }

    /// The rows appended from now on come from another section: another file, or another run
    /// of event lines in a dump. A section may repeat rows of another (a dump printing the same
    /// events once per interval, a file given twice); inside one, equal rows are events of
    /// their own (a dump printing minutes: the launcher twice in one minute).
    public mutating func beginSection() { section += 1 }

    public mutating func ignore(_ reason: String) { ignored[reason, default: 0] += 1 }

    /// The canonical log: header, then each user's events in time order (users by name),
    /// with the foreground rules applied and exact duplicates removed. Each line goes to `write`
    /// as it is made, and the rows are released as they are sorted, so memory holds the rows
    /// once (and one user's at a time twice), not the log's text beside them.
    public mutating func canonical(rules: ForegroundRules, write: (String) -> Void) -> Int {
        let order = rows.indices.sorted { a, b in Self.precedes(rows[a], a, rows[b], b) }
        var sorted: [ImportedRow] = []
        sorted.reserveCapacity(rows.count)
        // Per kind of row at the instant at hand: how often it came in the section at hand, and
        // at most in any section before. An occurrence an earlier section already had is a repeat.
        var current: [(kind: ImportedRow.Kind, count: Int)] = [], earlier: [(kind: ImportedRow.Kind, count: Int)] = []
        var currentSection: Int32 = -1
        for i in order {
            let row = rows[i]
            if let last = sorted.last, last.user == row.user, last.millis == row.millis {
                if sections[i] != currentSection { Self.fold(&current, into: &earlier) }
            } else {
                current.removeAll(keepingCapacity: true)
                earlier.removeAll(keepingCapacity: true)
            }
            currentSection = sections[i]
            let seen = Self.count(of: row.kind, in: &current, adding: 1)
            if seen <= Self.count(of: row.kind, in: &earlier, adding: 0) { ignore("duplicate row"); continue }
            sorted.append(row)
        }
        rows = []
        sections = []
        write(CSVLineParser.header)
        var dropped = 0, sameWake = 0, events = 0
        var start = sorted.startIndex
        while start < sorted.endIndex {
            let user = sorted[start].user
            let end = sorted[start...].firstIndex { $0.user != user } ?? sorted.endIndex
            for row in rules.apply(Array(sorted[start..<end]), dropped: &dropped, sameWake: &sameWake) {
                guard case .event(let kind, let app, let value) = row.kind else { continue }
                write([LocalTime.isoText(row.millis, offsetMinutes: row.offsetMinutes), CSVField.text(user),
                       CSVField.text(app), kind.logName, CSVField.text(value)].joined(separator: ","))
                events += 1
            }
            start = end
        }
        if dropped > 0 { ignored["launcher, overlay or repeated foreground move", default: 0] += dropped }
        if sameWake > 0 { ignored["unlock just after the screen came on, or shutdown with the screen off", default: 0] += sameWake }
        return events
    }

    /// The canonical log's lines at once (``canonical(rules:write:)``).
    public mutating func canonical(rules: ForegroundRules) -> (text: [String], events: Int) {
        var lines: [String] = []
        let events = canonical(rules: rules) { lines.append($0) }
        return (lines, events)
    }

    /// The count of `kind` in `counts` after adding `adding` to it.
    static func count(of kind: ImportedRow.Kind, in counts: inout [(kind: ImportedRow.Kind, count: Int)], adding: Int) -> Int {
        if let i = counts.firstIndex(where: { $0.kind == kind }) {
            counts[i].count += adding
            return counts[i].count
        }
        if adding > 0 { counts.append((kind, adding)) }
        return adding
    }

    /// Keeps in `earlier` the larger count of each kind, and empties `current`.
    static func fold(_ current: inout [(kind: ImportedRow.Kind, count: Int)], into earlier: inout [(kind: ImportedRow.Kind, count: Int)]) {
        for (kind, n) in current {
            if let i = earlier.firstIndex(where: { $0.kind == kind }) {
                earlier[i].count = max(earlier[i].count, n)
            } else {
                earlier.append((kind, n))
            }
        }
        current.removeAll(keepingCapacity: true)
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
