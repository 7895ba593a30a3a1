import ArgumentParser

/// `fetchsched`: replay usage logs under scheduling policies, compare them, store logs, and
/// generate synthetic ones.
public struct FetchSched: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fetchsched",
        abstract: "An open, deterministic scheduler for mobile background refresh.",
        discussion: "Replays usage logs under scheduling policies and measures freshness, energy and data against the hard rules of background fetch.",
        version: "0.1.0",
        subcommands: [ReplayCommand.self, BenchCommand.self, NextCommand.self, IngestCommand.self, GenerateCommand.self, CheckCommand.self])

    public init() {}
}
