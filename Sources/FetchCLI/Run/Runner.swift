import FetchCore
import FetchResults
import FetchStorage
import Foundation

/// Runs replays over an input, in one pass, and reports.
struct Runner {
    var input: InputOptions
    var run: RunOptions
    /// The run's scenario, read once: replays use its value, a shard report its text.
    var scenario: LoadedScenario
    /// With `--shard`, the SHA-256 of the events read (``DigestingSource``), once the replay is done.
    let inputDigest = Box<String?>(nil)

    init(input: InputOptions, run: RunOptions) throws {
        self.input = input
        self.run = run
        scenario = try run.scenarioOptions.load()
    }

    /// Replays every policy over the input, in one pass. `sinks` gives the trace sink of the
    /// replay of each policy (by index), `tap` sees every event read.
    /// The processes of `exec:` policies are ended after the pass, whatever happened; the first
    /// that failed fails the run.
    func replay(_ policies: [any FetchPolicy],
                sinks: ((Int, NameTable, NameTable) -> (any TraceSink)?)? = nil,
                tap: ((UsageEvent, NameTable) -> Void)? = nil) throws -> [ReplayResult] {
        let peers = policies.compactMap { ($0 as? ExecPolicy)?.peer as? ProcessPeer }
        let clock = ContinuousClock(), started = clock.now
        let result = Result { try replayAll(policies, sinks: sinks, tap: tap) }
        let failures = peers.compactMap { $0.finish() }
        if let failure = failures.first { throw CLIError(failure) }
        if run.timing {
            let seconds = (clock.now - started).seconds
            for p in peers {
                let took = String(format: "%.2f", seconds)
                printError("exec:\(p.command): \(p.answers) decision points answered, \(p.told) events sent in \(took) s: "
                           + "\(Int(Double(p.answers) / seconds)) decision points/s")
            }
        }
        return try result.get()
    }

    private func replayAll(_ policies: [any FetchPolicy],
                           sinks: ((Int, NameTable, NameTable) -> (any TraceSink)?)?,
                           tap: ((UsageEvent, NameTable) -> Void)?) throws -> [ReplayResult] {
        let scenario = scenario.scenario
        let clock = ContinuousClock(), started = clock.now
        var reports: [ReplayResult] = []
        var skipped: [String: Int] = [:]
        let progress = Progress(enabled: !run.quiet)
        func drive<S: UsageEventSource>(_ source: inout S) throws {
            guard let shard = run.userShard else { return try feed(&source) }
            var sharded = ShardedSource(base: DigestingSource(base: source), shard: shard)
            defer { source = sharded.base.base }
            try feed(&sharded)
            inputDigest.value = sharded.base.finish()
        }
        func feed<S: UsageEventSource>(_ source: inout S) throws {
            if sinks == nil && tap == nil, let threaded = try replayThreaded(policies, scenario: scenario, source: &source, progress: progress) {
                reports = threaded
                return
            }
            if run.byUser {
                throw CLIError("--by-user replays user by user: it cannot write a trace or an HTML report, which follow the log's time order")
            }
            let replays = policies.enumerated().map { i, p in
                makeReplay(policy: p, scenario: scenario, seed: run.seed, users: source.users, apps: source.apps,
                           trace: sinks?(i, source.users, source.apps))
            }
            if let tap {
                var tapped = TappedSource(base: source, tap: tap)
                try tapped.run(replays)
            } else if sinks == nil {
                try source.runGrouped(replays)
            } else {
                try source.run(replays)
            }
            reports = replays.map { $0.finish() }
        }
        do {
            if let db = input.db {
                // A trace and an HTML report follow the events in time order across users.
                try StoreLocation.openBlocking(db).withEventSource(timeOrder: sinks != nil || tap != nil) { try drive(&$0) }
            } else {
                var source = try LogSource(paths: input.logs, skipInvalid: input.skipInvalid)
                try drive(&source)
                if let summary = source.skippedSummary { printError("skipped invalid rows: \(summary)") }
                skipped = Dictionary(uniqueKeysWithValues: source.skipped.map { ($0.key.rawValue, $0.value) })
            }
        } catch let e as LogError {
            throw CLIError(e.description)
        } catch let e as InputError {
            throw CLIError(e.description)
        }
        if run.timing, let events = reports.first?.events {
            let seconds = (clock.now - started).seconds
            let took = String(format: "%.2f", seconds), noun = policies.count == 1 ? "policy" : "policies"
            printError("replayed \(events) events × \(policies.count) \(noun) in \(took) s: \(Int(Double(events) / seconds)) events/s "
                       + "per policy pass, \(Int(Double(events * policies.count) / seconds)) policy-events/s")
        }
        return reports.map { var r = $0; r.skipped = skipped; return r }
    }

    /// The replay on worker threads (``ParallelReplay``), user by user with `--by-user`; nil
    /// when it runs on this thread instead (one worker in time order).
    private func replayThreaded<S: UsageEventSource>(_ policies: [any FetchPolicy], scenario: Scenario, source: inout S,
                                                     progress: Progress) throws -> [ReplayResult]? {
        guard run.byUser || run.workers > 1 else { return nil }
        let parallel = ParallelReplay(policies: policies, scenario: scenario, seed: run.seed, workers: run.workers)
        defer { progress.finish() }
        let update = { progress.update(events: $0, users: $1, done: $2) }
        return try run.byUser ? parallel.runByUser(&source, progress: update) : parallel.run(&source, progress: update)
    }
}

/// A value a non-mutating method can set.
final class Box<T> {
    var value: T
    init(_ value: T) { self.value = value }
}

/// A source whose events are also shown to `tap`.
struct TappedSource<S: UsageEventSource>: UsageEventSource {
    var base: S
    let tap: (UsageEvent, NameTable) -> Void
    var users: NameTable { base.users }
    var apps: NameTable { base.apps }

    mutating func next() throws -> UsageEvent? {
        let e = try base.next()
        if let e { tap(e, base.users) }
        return e
    }
}

/// The policies of a comma-separated list; an `exec:` policy's process is started here.
func parsePolicies(_ text: String, run: RunOptions) throws -> [any FetchPolicy] {
    try text.split(separator: ",").map { name in
        guard let p = try PolicySpec.parse(String(name), launch: { try ProcessPeer(command: $0, timeoutSeconds: run.execTimeout) }) else {
            throw CLIError(PolicySpec.problem(with: String(name)))
        }
        return p
    }
}
