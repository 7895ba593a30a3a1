import FetchStorage
import ArgumentParser
import Foundation

/// `fetchsched`: replay usage logs under scheduling policies, compare them, store logs,
/// generate synthetic ones, and serve the scheduler over HTTP.
public struct FetchSched: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fetchsched",
        abstract: "An open, deterministic scheduler for mobile background refresh.",
        discussion: "Replays usage logs under scheduling policies and measures freshness, energy and data against the hard rules of background fetch.",
        version: "0.1.0",
        subcommands: [ReplayCommand.self, BenchCommand.self, NextCommand.self, IngestCommand.self, GenerateCommand.self, ImportCommand.self, CheckCommand.self, ServeCommand.self, MergeCommand.self, PredictCommand.self])

    public init() {}
}

extension FetchSched {
    /// Parses the command line and runs the command, awaiting async ones (`serve`, `replay`,
    /// `bench` …). What `AsyncParsableCommand.main()` does; called by name because top-level
    /// code resolves `main()` to the synchronous overload, which refuses an async root.
    ///
    /// A synchronous command (`generate`, `import` …) runs on a thread of its own, with a stack
    /// of 16 MiB, rather than on a thread of Swift's cooperative pool.
    public static func start() async {
        StandardStreams.holdStandardDescriptors()
        RunStop.acceptStopSignals()
        do {
            let command = try parseAsRoot()
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try await onThreadOfItsOwn(command)
            }
            try StandardStreams.finish()
        } catch {
            exit(printing: error)
        }
    }

    /// Ends the run as ArgumentParser's `exit(withError:)` does, but with the text a clean exit
    /// prints (`--help`, `--version`) written and checked as every output is: one that cannot be
    /// written (a full disk, a closed descriptor) is an error and exit status 1, not success.
    static func exit(printing error: any Error) -> Never {
        let code = exitCode(for: error), text = fullMessage(for: error)
        guard code == .success, !text.isEmpty else { exit(withError: error) }
        do {
            try printLine(text)
            try StandardStreams.finish()
        } catch {
            printError("Error: \(error)")
            Foundation.exit(1)
        }
        Foundation.exit(code.rawValue)
    }

    /// Runs a synchronous command on a new thread, and waits for it without blocking the pool.
    static func onThreadOfItsOwn(_ command: any ParsableCommand) async throws {
        nonisolated(unsafe) var command = command  // moved to the thread, used by it alone
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                do { try command.run(); done.resume() } catch { done.resume(throwing: error) }
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
    }
}
