import ArgumentParser
import FetchCore
import FetchStore
import Foundation

/// Where events come from: log files, or a store made by `ingest`.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Usage logs: canonical CSV or JSON Lines.", valueName: "log"))
    var logs: [String] = []

    @Option(help: ArgumentHelp("Read events from this store instead of log files.", valueName: "file"))
    var db: String?

    @Flag(help: "Skip malformed rows and report how many, by reason, instead of stopping.")
    var skipInvalid = false

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
    @Option(help: ArgumentHelp("Scenario file (JSON); DESIGN.md's defaults when omitted.", valueName: "file"))
    var scenario: String?

    @Option(help: "A seed for repeatable random draws (fetch outcomes, content updates).")
    var seed: UInt64 = 1

    func loadScenario() throws -> Scenario {
        guard let path = scenario else { return .default }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read scenario '\(path)'")
        }
        do {
            return try Scenario.parse(json: Array(data))
        } catch {
            throw CLIError("scenario '\(path)': \(error)")
        }
    }
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

    var workers: Int { max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount) }

    func validate() throws {
        // Each worker is a thread with its own queue: a count from outside is bounded first.
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be 1 to 256") }
    }
    var seed: UInt64 { scenarioOptions.seed }
    var scenario: String? { scenarioOptions.scenario }

    func loadScenario() throws -> Scenario { try scenarioOptions.loadScenario() }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, markdown
}

/// A clear message and a non-zero exit.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
