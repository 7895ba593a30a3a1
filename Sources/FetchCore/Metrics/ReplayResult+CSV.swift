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
        var header: [String]?
        var lines: [String] = []
        for report in reports {
            for row in try report.csvRows(per: rows) {
                let names = row.map(\.name)
                if let header, header != names {
                    throw EncodingError.invalidValue(names, .init(codingPath: [], debugDescription: "CSV rows with different columns"))
                }
                if header == nil { header = names; lines.append(names.map(CSVField.text).joined(separator: ",")) }
                lines.append(row.map { CSVField.text($0.cell ?? "") }.joined(separator: ","))
            }
        }
        if header == nil { lines.append(try emptyHeader(per: rows).map(CSVField.text).joined(separator: ",")) }
        return lines.map { $0 + "\r\n" }.joined()
    }

    private func csvRows(per rows: CSVRows) throws -> [[(name: String, cell: String?)]] {
        switch rows {
        case .policy:
            return [try ColumnEncoder.columns(of: CSVRow { c in try self.encodeSummary(into: &c) })]
        case .user:
            return try perUser.map { row in
                try ColumnEncoder.columns(of: CSVRow { c in
                    try c.encode(self.policy, forKey: Key("policy"))
                    try Self.encode(row, into: &c)
                })
            }
        case .day:
            return try perDay.map { row in
                try ColumnEncoder.columns(of: CSVRow { c in
                    try c.encode(self.policy, forKey: Key("policy"))
                    try self.encode(row, into: &c)
                })
            }
        }
    }

    /// The header of a report with no rows (no users), so that a reader still sees the columns.
    private static func emptyHeader(per rows: CSVRows) throws -> [String] {
        let empty = ReplayResult(policy: "", seed: 0, scenario: .default, events: 0, total: Tally(),
                                 perUser: [UserRow(user: "", days: 0, tally: Tally())],
                                 perDay: [DayRow(date: "", users: 0, tally: Tally())])
        return try empty.csvRows(per: rows)[0].map(\.name)
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

