import FetchCore
import Foundation

extension ParallelReplay {
    /// Replays user by user (`--by-user`): one pass splits the input by user into buckets on
    /// disk (``UserPartition``), then the workers take the buckets in turn, each bucket's users
    /// one at a time, retiring each after its last event (``UserGrouping/replayEach(_:through:)``).
    ///
    /// A worker then holds one bucket's events and one user's simulation per policy, not every
    /// user's at once as a log in time order needs, and each retired user's row goes to a file
    /// of its own (``UserRowFile``) until the report reads it back: memory grows with the
    /// largest user, not with the population. The reports are the same bytes as a replay in
    /// time order (users share nothing but integer tallies, merged as ``run(_:progress:)``'s).
    nonisolated(nonsending) func runByUser<S: UsageEventBatches>(
        _ source: inout S, directory: String = TemporaryFile.directory,
        progress: (_ events: Int, _ users: Int, _ done: Double?) -> Void
    ) async throws -> [ReplayResult] {
        let partition = try UserPartition(directory: directory)
        var count = 0
        while let batch = try await source.nextBatch() {
            for e in batch { try partition.add(e) }
            let before = count
            count += batch.count
            if count >> 16 != before >> 16 { progress(count, source.users.count, source.progress) }
        }
        try partition.finishWriting()
        let userNames = source.users.names, appNames = source.apps.names
        let workers = min(self.workers, partition.buckets)
        let results = ResultBox(count: workers)
        let failures = FailureBox()
        let archives = try (0..<workers).map { _ in try policies.map { _ in try UserRowFile(directory: directory) } }
        let work: @Sendable (Int) -> Void = { [policies, scenario, seed] w in
            let users = NameTable(), apps = NameTable()
            for n in userNames { _ = users.id(n) }
            for n in appNames { _ = apps.id(n) }
            let replays = makeReplays(policies: policies, scenario: scenario, seed: seed, users: users, apps: apps,
                                      archives: { archives[w][$0] })
            do {
                for b in stride(from: w, to: partition.buckets, by: workers) {
                    UserGrouping.replayEach(try partition.events(inBucket: b), through: replays)
                }
            } catch {
                failures.record(error)
            }
            results.set(w, replays.map { $0.finish() })
        }
        if workers == 1 {
            work(0)
        } else {
            let threads = (0..<workers).map { w in Thread { work(w) } }
            for t in threads { t.stackSize = 8 << 20; t.start() }
        }
        await results.wait()
        if let error = failures.first { throw error }
        for archive in archives.joined() { try archive.check() }
        let parts = results.values
        return policies.indices.map { p in ReplayResult.merged(parts.map { $0[p] }) }
    }
}

/// The first error of the workers. Guarded by its lock.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)?

    func record(_ e: any Error) {
        lock.lock()
        if error == nil { error = e }
        lock.unlock()
    }

    var first: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return error
    }
}
