import FetchCore
import FetchResults

/// With `--per app`: one ``AppRecorder`` per policy's replay, and their report.
final class AppRecorders {
    private var byPolicy: [Int: AppRecorder] = [:]

    /// The recorder of the replay of the policy at `index`.
    func sink(_ index: Int, users: NameTable, apps: NameTable) -> AppRecorder {
        let recorder = AppRecorder(users: users, apps: apps)
        byPolicy[index] = recorder
        return recorder
    }

    /// The rows of the replays' `reports` (in policy order), of the apps in `only` when given.
    /// The report of the apps `only` names (every app for nil); an app it names that the logs
    /// never open is said on standard error, and none of them at all is an error.
    func report(_ reports: [ReplayResult], only: Set<String>?) throws -> AppReport {
        let report = AppReport(reports.indices.compactMap { i in byPolicy[i].map { (reports[i].policy, $0) } }, only: only)
        guard let only else { return report }
        let found = Set(report.rows.map(\.app)), missing = only.subtracting(found).sorted().map { InputBounds.printable($0) }
        if found.isEmpty {
            throw CLIError("--apps: no app of the logs is named \(missing.map { "'\($0)'" }.joined(separator: ", ")) (nothing was printed)")
        }
        if !missing.isEmpty { printError("--apps: the logs have no open of \(missing.map { "'\($0)'" }.joined(separator: ", "))") }
        return report
    }

    /// `report` printed as `format` asks, to `write` (CSV a row at a time).
    static func render(_ report: AppReport, format: OutputFormat, to write: (String) throws -> Void) throws {
        switch format {
        case .csv: try report.writeCSV(to: write)
        case .json: try write(try ResultText.json(report) + "\n")
        case .markdown, .table: try write(report.table(markdown: format == .markdown))
        }
    }
}
