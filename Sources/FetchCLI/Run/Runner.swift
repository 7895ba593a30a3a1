import FetchCore
import FetchExec
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
    /// replay of each policy (by index), `tap` sees every event read. With `acrossUsers` false,
    /// the sinks need each user's rows in time order only, not the input's order across users
    /// (`--per app`), and the replays take the input user by user, as without sinks.
    /// The processes of `exec:` policies are ended after the pass, whatever happened; the first
    /// that failed fails the run.
    nonisolated(nonsending) func replay(_ policies: [any FetchPolicy],
                                        sinks: ((Int, NameTable, NameTable) -> (any TraceSink)?)? = nil,
                                        tap: ((UsageEvent, NameTable) -> Void)? = nil,
                                        acrossUsers: Bool = true) async throws -> [ReplayResult] {
        let peers = policies.compactMap { ($0 as? ExecPolicy)?.peer as? ProcessPeer }
        let clock = ContinuousClock(), started = clock.now
        let result: Result<[ReplayResult], any Error>
        let timeOrder = (sinks != nil && acrossUsers) || tap != nil
        do { result = .success(try await replayAll(policies, sinks: sinks, tap: tap, timeOrder: timeOrder)) } catch { result = .failure(error) }
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

    nonisolated(nonsending) private func replayAll(_ policies: [any FetchPolicy],
                                                   sinks: ((Int, NameTable, NameTable) -> (any TraceSink)?)?,
                                                   tap: ((UsageEvent, NameTable) -> Void)?, timeOrder: Bool) async throws -> [ReplayResult] {
        let scenario = scenario.scenario
        let clock = ContinuousClock(), started = clock.now
        var reports: [ReplayResult] = []
        var skipped: [String: Int] = [:]
        let progress = Progress(enabled: !run.quiet)
        nonisolated(nonsending) func drive<S: UsageEventBatches>(_ source: inout S) async throws {
            guard run.userShard != nil || tap != nil else { return try await feed(&source) }
            var passed = PassedBatches(base: source, shard: run.userShard, tap: tap)
            try await feed(&passed)
            source = passed.base
            if run.userShard != nil { inputDigest.value = passed.digest.finish(users: source.users, apps: source.apps) }
        }
        nonisolated(nonsending) func feed<S: UsageEventBatches>(_ source: inout S) async throws {
            if sinks == nil && tap == nil,
               let threaded = try await replayThreaded(policies, scenario: scenario, source: &source, progress: progress) {
                reports = threaded
                return
            }
            if run.byUser {
                throw CLIError("--by-user replays user by user: it cannot write a trace or an HTML report, which follow the log's time order")
            }
            let replays = makeReplays(policies: policies, scenario: scenario, seed: run.seed, users: source.users, apps: source.apps,
                                      traces: { sinks?($0, source.users, source.apps) })
            // A tap sees the events in the order the replays take them.
            if timeOrder {
                try await source.run(replays)
            } else {
                try await source.runGrouped(replays)
            }
            reports = replays.map { $0.finish() }
        }
        do {
            if let db = input.db {
                let store = try await StoreLocation.open(db)
                let read: Result<Void, any Error>
                // A trace and an HTML report follow the events in time order across users.
                do { read = .success(try await store.withEventBatches(timeOrder: timeOrder) { try await drive(&$0) }) } catch {
                    read = .failure(error)
                }
                await StoreLocation.close(store)
                try read.get()
            } else {
                var source = SourceBatches(try LogSource(paths: input.logs, skipInvalid: input.skipInvalid))
                try await drive(&source)
                if let summary = source.base.skippedSummary { printError("skipped invalid rows: \(summary)") }
                skipped = Dictionary(uniqueKeysWithValues: source.base.skipped.map { ($0.key.rawValue, $0.value) })
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
    nonisolated(nonsending) private func replayThreaded<S: UsageEventBatches>(_ policies: [any FetchPolicy], scenario: Scenario,
                                                                              source: inout S, progress: Progress) async throws -> [ReplayResult]? {
        guard run.byUser || run.workers > 1 else { return nil }
        let parallel = ParallelReplay(policies: policies, scenario: scenario, seed: run.seed, workers: run.workers)
        defer { progress.finish() }
        let update = { progress.update(events: $0, users: $1, done: $2) }
        return try await run.byUser ? parallel.runByUser(&source, progress: update) : parallel.run(&source, progress: update)
    }
}

/// A value a non-mutating method can set.
final class Box<T> {
    var value: T
    init(_ value: T) { self.value = value }
}

/// The events a run reads, on their way to its replays: with a shard, each goes into the shard
/// report's digest and only its users' go on; each that goes on is shown to the tap.
struct PassedBatches<Base: UsageEventBatches>: UsageEventBatches {
    var base: Base
    private var members: ShardMembers?
    var digest = EventDigest()
    let tap: ((UsageEvent, NameTable) -> Void)?

    init(base: Base, shard: UserShard?, tap: ((UsageEvent, NameTable) -> Void)?) {
        self.base = base
        members = shard.map(ShardMembers.init)
        self.tap = tap
    }

    var users: NameTable { base.users }
    var apps: NameTable { base.apps }
    var progress: Double? { base.progress }

    nonisolated(nonsending) mutating func nextBatch() async throws -> [UsageEvent]? {
        while let batch = try await base.nextBatch() {
            var kept = batch
            if members != nil {
                kept.removeAll(keepingCapacity: true)
                for e in batch {
                    digest.add(e)
                    if members!.contains(e, users: base.users) { kept.append(e) }
                }
            }
            if let tap { for e in kept { tap(e, base.users) } }
            if !kept.isEmpty { return kept }
        }
        return nil
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
