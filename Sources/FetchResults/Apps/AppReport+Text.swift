#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchCore

extension AppReport {
    package static let columns = ["app", "policy", "users", "opens", "fetches/day p10", "p50", "p90", "days without fetch %",
                                  "longest without (d)", "first fetch p50 min", "p90 min", "opened, never fetched",
                                  "gap p50 min", "gap p90 min", "fresh %", "rescued %"]

    /// One row per app and policy, aligned as text or as Markdown.
    public func table(markdown: Bool) -> String {
        let rows = rows.map { r -> [String] in
            let name = InputBounds.printable(r.app, limit: 60)
            return [markdown ? name.replacingOccurrences(of: "|", with: "\\|") : name] + Self.cells(r).dropFirst()
        }
        return ResultText.grid(Self.columns, rows, markdown: markdown, leftColumns: [0, 1])
    }

    /// A row's cells under ``columns``, the app's name as it is.
    package static func cells(_ r: Row) -> [String] {
        [r.app, r.policy, "\(r.users)", "\(r.opens)",
         ResultText.fixed(r.fetchesPerDay.p10, 2), ResultText.fixed(r.fetchesPerDay.p50, 2), ResultText.fixed(r.fetchesPerDay.p90, 2),
         ResultText.fixed(r.days == 0 ? 0 : Double(r.daysWithoutFetch) / Double(r.days) * 100, 1), "\(r.longestDaysWithoutFetch)",
         r.firstFetchMinutes.map { ResultText.fixed($0.p50, 0) } ?? "-", r.firstFetchMinutes.map { ResultText.fixed($0.p90, 0) } ?? "-",
         "\(r.openedNeverFetched)", r.gapMinutes.map { "\($0.p50)" } ?? "-", r.gapMinutes.map { "\($0.p90)" } ?? "-",
         r.freshShare.map { ResultText.fixed($0 * 100, 1) } ?? "-", r.rescuedShare.map { ResultText.fixed($0 * 100, 1) } ?? "-"]
    }

    /// The CSV columns: the JSON report's field names, nested ones joined by `_`.
    static let csvColumns = ["app", "policy", "users", "opens", "fetches", "fetchesPerDay_p10", "fetchesPerDay_p50", "fetchesPerDay_p90",
                             "days", "daysWithoutFetch", "longestDaysWithoutFetch", "firstFetchMinutes_p10", "firstFetchMinutes_p50",
                             "firstFetchMinutes_p90", "openedNeverFetched", "gapMinutes_p50", "gapMinutes_p90", "freshShare", "rescuedShare"]

    /// One CSV row (RFC 4180) per app and policy, handed to `write` a line at a time; an absent
    /// value is an empty cell.
    public func writeCSV(to write: (String) throws -> Void) throws {
        try write(Self.csvColumns.map(CSVField.text).joined(separator: ",") + "\r\n")
        for r in rows {
            let cells: [String] = [r.app, r.policy, "\(r.users)", "\(r.opens)", "\(r.fetches)",
                                   "\(r.fetchesPerDay.p10)", "\(r.fetchesPerDay.p50)", "\(r.fetchesPerDay.p90)",
                                   "\(r.days)", "\(r.daysWithoutFetch)", "\(r.longestDaysWithoutFetch)",
                                   r.firstFetchMinutes.map { "\($0.p10)" } ?? "", r.firstFetchMinutes.map { "\($0.p50)" } ?? "",
                                   r.firstFetchMinutes.map { "\($0.p90)" } ?? "", "\(r.openedNeverFetched)",
                                   r.gapMinutes.map { "\($0.p50)" } ?? "", r.gapMinutes.map { "\($0.p90)" } ?? "",
                                   r.freshShare.map { "\($0)" } ?? "", r.rescuedShare.map { "\($0)" } ?? ""]
            try write(cells.map(CSVField.text).joined(separator: ",") + "\r\n")
        }
    }
}
