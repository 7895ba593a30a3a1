import ArgumentParser
import FetchBench
import FetchCore
import FetchResults
import FetchStorage

/// `fetchsched merge`: the shard reports of one `replay` or `bench` run with `--shard i/n`,
/// combined into the report the unsharded run prints.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the shard reports of a run with --shard into the unsharded run's report.",
        discussion: "Give every shard's report, 0/n to n-1/n, once each. The output is byte for byte what the same replay or bench run without --shard prints with the same --format.")

    @Argument(help: ArgumentHelp("Shard reports written by 'replay' or 'bench' with --shard i/n.", valueName: "shard.json"))
    var reports: [String]

    @OptionGroup var options: MergeOutputOptions

    /// The output as `replay` and `bench` take it.
    var output: OutputOptions {
        var o = OutputOptions()
        (o.format, o.per) = (options.format, options.per)
        return o
    }

    func run() throws {
        let files = try reports.map { path in
            let (report, countSum) = try ShardReport.read(path: path)
            return (path: path, report: report, countSum: countSum)
        }
        let (run, results) = try ShardReport.merge(files)
        if run.command == "replay" {
            try ReplayCommand.render(results[0], output: output, to: standardOutput)
        } else {
            let frontiers = run.frontier ? Frontier.families(results) : []
            try BenchCommand.render(results, frontiers: frontiers, policies: run.policies, output: output, to: standardOutput)
        }
    }
}

/// `merge`'s output: `replay`'s and `bench`'s but for `--per app` and `--apps`, which follow every
/// fetch as it runs, and which a shard report does not keep; its help lists only what it takes.
struct MergeOutputOptions: ParsableArguments {
    @Option(help: "Output: table, json, markdown or csv.")
    var format: OutputFormat = .table

    @Option(help: ArgumentHelp("One row per policy (policy), or, with --format csv, per policy and user (user) or per policy and "
                               + "local day (day). (Not per app: a shard report does not keep every fetch.)", valueName: "policy|user|day"))
    var per: RowsPer = .policy

    func validate() throws {
        if per == .app { throw ValidationError("--per app follows every fetch as it runs, which a shard report does not keep") }
        if (per == .user || per == .day) && format != .csv { throw ValidationError("--per \(per.rawValue) needs --format csv") }
    }
}
