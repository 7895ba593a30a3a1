import FetchCore

/// What one CSV row stands for: a policy's totals, or a policy's figures for one user or one day.
public enum CSVRows: String, Sendable, CaseIterable {
    case policy, user, day
}

extension ReplayResult {
    /// Reports as CSV (RFC 4180), one row per policy, or per policy and user, or per policy and
    /// local day; rows keep the reports' order, then the report's own user or day order.
    ///
    /// Columns are the JSON report's field names, nested ones joined by `_` (`results_newData`,
    /// `staleMinutes_median`); an absent value is an empty cell. docs/formats.md lists them.
    public static func csv(_ reports: [ReplayResult], per rows: CSVRows) throws -> String {
        var out = ""
        try writeCSV(reports, per: rows) { out += $0 }
        return out
    }

    /// ``csv(_:per:)``'s text handed to `write` a line at a time, so that no more than one row
    /// is held at once: a report whose rows wait on disk (``UserRows``) is read back a row at a
    /// time. The lines are the same as ``csv(_:per:)``'s text.
    public static func writeCSV(_ reports: [ReplayResult], per rows: CSVRows, to write: (String) throws -> Void) throws {
        var header: [String]?
        for report in reports {
            try report.forEachCSVRow(per: rows) { row in
                let names = row.map(\.name)
                if let header, header != names {
                    throw EncodingError.invalidValue(names, .init(codingPath: [], debugDescription: "CSV rows with different columns"))
                }
                if header == nil {
                    header = names
                    try write(names.map(CSVField.text).joined(separator: ",") + "\r\n")
                }
                try write(row.map { CSVField.text($0.cell ?? "") }.joined(separator: ",") + "\r\n")
            }
        }
        if header == nil { try write(try emptyHeader(per: rows).map(CSVField.text).joined(separator: ",") + "\r\n") }
    }

    /// Hands `body` each CSV row of the report in turn, as columns.
    private func forEachCSVRow(per rows: CSVRows, _ body: ([(name: String, cell: String?)]) throws -> Void) throws {
        switch rows {
        case .policy:
            try body(try ColumnEncoder.columns(of: CSVRow { c in try self.encodeSummary(into: &c) }))
        case .user:
            for row in perUser {
                try body(try ColumnEncoder.columns(of: CSVRow { c in
                    try c.encode(self.policy, forKey: Key("policy"))
                    try Self.encode(row, into: &c)
                }))
            }
        case .day:
            for row in perDay {
                try body(try ColumnEncoder.columns(of: CSVRow { c in
                    try c.encode(self.policy, forKey: Key("policy"))
                    try self.encode(row, into: &c)
                }))
            }
        }
    }

    /// The header of a report with no rows (no users), so that a reader still sees the columns.
    private static func emptyHeader(per rows: CSVRows) throws -> [String] {
        let empty = ReplayResult(policy: "", seed: 0, scenario: .default, events: 0, total: Tally(),
                                 perUser: [UserRow(user: "", days: 0, tally: Tally())],
                                 perDay: [DayRow(date: "", users: 0, tally: Tally())])
        var names: [String] = []
        try empty.forEachCSVRow(per: rows) { names = $0.map(\.name) }
        return names
    }
}

/// One row, written by a closure over a keyed container.
private struct CSVRow: Encodable {
    let write: (inout KeyedEncodingContainer<ReplayResult.Key>) throws -> Void
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: ReplayResult.Key.self)
        try write(&c)
    }
}

