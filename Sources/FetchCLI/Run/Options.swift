import ArgumentParser
import FetchAPI
import FetchCore
import FetchResults
import FetchStorage
import Foundation

/// Where events come from: log files, or a store made by `ingest`.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Usage logs: canonical CSV or JSON Lines.", valueName: "log"))
    var logs: [String] = []

    @Option(help: ArgumentHelp("Read events from this store instead of log files. " + StoreLocation.help, valueName: "store"))
    var db: String?

    @Flag(help: "Skip malformed rows and report how many, by reason, instead of stopping.")
    var skipInvalid = false

    /// The files the run reads: the logs, or a SQLite store.
    var files: [String] { db.map { StoreLocation.isPostgres($0) ? [] : [$0] } ?? logs }

    func validate() throws {
        if logs.isEmpty && db == nil { throw ValidationError("give log files, or --db with a store made by 'fetchsched ingest'") }
        if !logs.isEmpty && db != nil { throw ValidationError("give log files or --db, not both") }
    }
}

/// Log files to read, for commands that take no store.
struct LogFileOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Usage logs: canonical CSV or JSON Lines.", valueName: "log"))
    var logs: [String]

    @Flag(help: "Skip malformed rows and report how many, by reason, instead of stopping.")
    var skipInvalid = false
}

/// The scenario and seed: what a replay, a plan and the service must agree on.
struct ScenarioOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Scenario file (JSON); the defaults of docs/formats.md when omitted.", valueName: "file"))
    var scenario: String?

    @Option(help: "A seed for repeatable random draws (fetch outcomes, content updates).")
    var seed: UInt64 = 1

    func loadScenario() throws -> Scenario { try load().scenario }

    /// Reads the scenario file once: its parsed value, and its text for a shard report.
    ///
    /// The file must be UTF-8: a stray byte is refused rather than read as U+FFFD, so the text
    /// a shard report records is the text that was parsed.
    func load() throws -> LoadedScenario {
        guard let path = scenario else { return LoadedScenario(scenario: .default, text: nil) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read scenario '\(path)'")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw CLIError("scenario '\(path)': not valid UTF-8")
        }
        do {
            return LoadedScenario(scenario: try Scenario.parse(json: Array(data)), text: text)
        } catch {
            throw CLIError("scenario '\(path)': \(error)")
        }
    }
}

/// A scenario as read from its file: the value, and the text it came from (nil for the default).
struct LoadedScenario {
    var scenario: Scenario
    var text: String?
}

/// How a replay runs: the scenario and seed, timing, threads, progress.
struct RunOptions: ParsableArguments {
    @OptionGroup var scenarioOptions: ScenarioOptions

    @Flag(help: "Print the time taken and events per second on stderr.")
    var timing = false

    @Option(help: "Worker threads for replays (default: one per core); output is the same for any count.")
    var threads: Int?

    @Flag(help: "No progress line on stderr.")
    var quiet = false

    @Option(help: ArgumentHelp("Replay only the users whose stable name hash falls in shard i of n (n up to \(UserShard.maxCount)), and write a shard report for 'fetchsched merge' instead of the usual output.", valueName: "i/n"))
    var shard: String?

    @Flag(help: ArgumentHelp("Replay user by user from a copy of the input split by user on disk (in TMPDIR): memory grows "
                             + "with the largest user, not with the number of users; the same output. Not with a trace or an "
                             + "HTML report, which follow the log's time order."))
    var byUser = false

    /// `--shard`, checked.
    var userShard: UserShard? { shard.flatMap(UserShard.init) }

    var workers: Int { max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount) }

    @Option(help: ArgumentHelp("How long an exec: policy's process may take to answer one decision point, in seconds (1 to 3600).", valueName: "seconds"))
    var execTimeout: Int = 30

    func validate() throws {
        if !(1...3600).contains(execTimeout) { throw ValidationError("--exec-timeout must be 1 to 3600 seconds") }
        // Each worker is a thread with its own queue: a count from outside is bounded first.
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be 1 to 256") }
        if let shard, UserShard(shard) == nil {
            throw ValidationError("--shard '\(InputBounds.printable(shard))' is not i/n with n from 1 to \(UserShard.maxCount) and i from 0 to n-1")
        }
    }
    var seed: UInt64 { scenarioOptions.seed }
    var scenario: String? { scenarioOptions.scenario }

    /// What a shard report records of this run, to check in `merge` that shards belong together.
    func shardRun(command: String, policies: String, frontier: Bool, sweep: String? = nil, input: InputOptions, scenarioText: String?,
                  skipped: [String: Int], inputDigest: String?) -> ShardReport.Run {
        ShardReport.Run(command: command, policies: policies, frontier: frontier, seed: String(seed),
                        scenario: scenarioText,
                        inputs: input.db.map { ["--db", $0] } ?? input.logs, inputDigest: inputDigest ?? "", skipped: skipped,
                        sweep: sweep)
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, markdown, csv
}

/// What the rows of `replay`'s and `bench`'s output stand for.
enum RowsPer: String, ExpressibleByArgument, CaseIterable {
    case policy, user, day, app

    /// The CSV rows of a policy's report; nil for `app`, whose rows are not a report's (``AppReport``).
    var csvRows: CSVRows? { CSVRows(rawValue: rawValue) }
}

/// How `replay`, `bench` and `merge` print their reports.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output: table, json, markdown or csv.")
    var format: OutputFormat = .table

    @Option(help: ArgumentHelp("One row per policy (policy), or, with --format csv, per policy and user (user) or per policy and local "
                               + "day (day); or, in any format, per app and policy (app): what an app developer asks of background "
                               + "refresh (fetches per day, days without one, the wait for the first, the gaps, fresh opens).",
                               valueName: "policy|user|day|app"))
    var per: RowsPer = .policy

    @Option(help: ArgumentHelp("With --per app, only these apps (comma-separated names).", valueName: "apps"))
    var apps: String?

    /// The apps `--apps` names, or nil for every app.
    var onlyApps: Set<String>? { apps.map { Set($0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)) } }

    func validate() throws {
        if (per == .user || per == .day) && format != .csv { throw ValidationError("--per \(per.rawValue) needs --format csv") }
        if apps != nil && per != .app { throw ValidationError("--apps chooses the rows of --per app: give --per app too") }
        if let only = onlyApps, only.contains(where: \.isEmpty) { throw ValidationError("--apps '\(apps ?? "")' has an empty name") }
    }

    /// Refuses `--per app` in a run that cannot follow each fetch in the input's time order.
    func refusePerApp(shard: Bool, byUser: Bool) throws {
        guard per == .app else { return }
        if shard { throw ValidationError("--per app follows every fetch as it runs, which a shard report does not keep: not with --shard") }
        if byUser { throw ValidationError("--per app follows the fetches in the log's time order: not with --by-user") }
    }
}
