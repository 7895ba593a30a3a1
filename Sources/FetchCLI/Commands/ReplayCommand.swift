import ArgumentParser
import FetchCore
import FetchResults
import FetchStorage

/// `fetchsched replay`: one policy over logs.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay usage logs under one policy and report freshness, energy, data and rule violations.",
        discussion: "Policies: none, fixed:<duration> (e.g. fixed:15m), oracle.")

    @OptionGroup var input: InputOptions
    @OptionGroup var runOptions: RunOptions

    @Option(help: ArgumentHelp("The policy. \(PolicySpec.helpText)."))
    var policy: String = "fixed:15m"

    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Write one CSV row per fetch and per refused request to this file.", valueName: "file.csv"))
    var trace: String?

    func run() async throws {
        try AtomicFile.refuse(outputs: [trace], over: input.files + [runOptions.scenarioOptions.scenario])
        let policies = try parsePolicies(policy, run: runOptions)
        guard policies.count == 1 else { throw CLIError("replay takes one policy; use 'fetchsched bench' for several") }
        let file = try trace.map { try AtomicFile(path: $0) }
        let runner = try Runner(input: input, run: runOptions)
        let perApp = output.per == .app ? AppRecorders() : nil
        let reports = try await runner.replay(policies, sinks: file != nil || perApp != nil ? { i, users, apps in
            TraceTee.of([file.map { TraceCSV(file: $0, users: users, apps: apps) }, perApp?.sink(i, users: users, apps: apps)])
        } : nil, acrossUsers: file != nil)
        try file?.commit()
        if let shard = runOptions.userShard {
            let run = runOptions.shardRun(command: "replay", policies: policy, frontier: false, input: input,
                                           scenarioText: runner.scenario.text, skipped: reports[0].skipped,
                                           inputDigest: runner.inputDigest.value)
            return try ShardReport(shard: shard, run: run, results: reports).write()
        }
        if let perApp { return try AppRecorders.render(try perApp.report(reports, only: output.onlyApps), format: output.format, to: standardOutput) }
        try Self.render(reports[0], output: output, to: standardOutput)
    }

    func validate() throws {
        if runOptions.shard != nil && output.format != .table {
            throw ValidationError("a run with --shard writes a shard report: give --format to 'fetchsched merge'")
        }
        try output.refusePerApp(shard: runOptions.shard != nil, byUser: runOptions.byUser)
    }

    /// The output of `replay` for its report: what a sharded run's `merge` prints too.
    /// The text is handed to `write` in pieces: CSV and JSON a row at a time.
    static func render(_ report: ReplayResult, output: OutputOptions, to write: (String) throws -> Void) throws {
        switch output.format {
        case .csv: try ReplayResult.writeCSV([report], per: output.per.csvRows ?? .policy, to: write)
        case .json: try ResultText.writeJSON(report, reports: [report], to: write)
        case .markdown: try write(ResultText.markdown([report]))
        case .table: try write(ResultText.table([report]) + "\n" + ResultText.days(report))
        }
    }
}
