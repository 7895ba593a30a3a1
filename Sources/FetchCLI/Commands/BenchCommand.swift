import ArgumentParser
import FetchCore

/// `fetchsched bench`: several policies over the same logs and seed, one row each.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Compare policies on the same logs and seed, one row each.")

    @OptionGroup var input: InputOptions
    @OptionGroup var runOptions: RunOptions

    @Option(help: "Comma-separated policies: none, fixed:<duration>, oracle.")
    var policies: String = "none,fixed:15m,fixed:60m,oracle"

    @Option(help: "Output: table, json or markdown.")
    var format: OutputFormat = .table

    func run() throws {
        let reports = try Runner(input: input, run: runOptions).replay(try parsePolicies(policies))
        switch format {
        case .json: print(try ReportText.json(reports))
        case .markdown: print(ReportText.markdown(reports), terminator: "")
        case .table: print(ReportText.table(reports), terminator: "")
        }
    }
}
