import ArgumentParser

/// `fetchsched`: replay usage logs under scheduling policies, compare them, store logs,
/// generate synthetic ones, and serve the scheduler over HTTP.
@available(macOS 14, *)
public struct FetchSched: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fetchsched",
        abstract: "An open, deterministic scheduler for mobile background refresh.",
        discussion: "Replays usage logs under scheduling policies and measures freshness, energy and data against the hard rules of background fetch.",
        version: "0.1.0",
        subcommands: [ReplayCommand.self, BenchCommand.self, NextCommand.self, IngestCommand.self, GenerateCommand.self, ImportCommand.self, CheckCommand.self, ServeCommand.self, MergeCommand.self])

    public init() {}
}

@available(macOS 14, *)
extension FetchSched {
    /// Parses the command line and runs the command, awaiting async ones (`serve`). What
    /// `AsyncParsableCommand.main()` does; called by name because top-level code resolves
    /// `main()` to the synchronous overload, which refuses an async root.
    public static func start() async {
        do {
            var command = try parseAsRoot()
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
