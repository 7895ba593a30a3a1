import FetchCore
import FetchStorage
import Foundation

/// Replays over all cores: the reading thread routes each user's events, in order, to one of
/// `workers` threads (by user id), each running its own replays of every policy; the reports are
/// merged at the end (``ReplayResult/merged(_:)``), byte-identical to a single-threaded run.
///
/// Workers keep their own name tables, fed with each batch's new names, so nothing mutable is
/// shared between threads but the batch queues.
struct ParallelReplay {
    let policies: [any FetchPolicy]
    let scenario: Scenario
    let seed: UInt64
    let workers: Int

    struct Batch: Sendable {
        var events: [UsageEvent] = []
        var newUsers: [String] = []
        var newApps: [String] = []
    }

    func run<S: UsageEventSource>(_ source: inout S, progress: (_ events: Int, _ users: Int, _ done: Double?) -> Void) throws -> [ReplayResult] {
        let queues = (0..<workers).map { _ in BatchQueue() }
        let results = ResultBox(count: workers)
        let threads = queues.enumerated().map { i, queue in
            Thread { [policies, scenario, seed] in
                let users = NameTable(), apps = NameTable()
                let replays = policies.map { makeReplay(policy: $0, scenario: scenario, seed: seed, users: users, apps: apps) }
                var grouping = UserGrouping()
                while let batch = queue.take() {
                    for n in batch.newUsers { _ = users.id(n) }
                    for n in batch.newApps { _ = apps.id(n) }
                    for e in batch.events { grouping.add(e, to: replays) }
                }
                grouping.flush(to: replays)
                results.set(i, replays.map { $0.finish() })
            }
        }
        for t in threads { t.stackSize = 8 << 20; t.start() }
        var batches = (0..<workers).map { _ in Batch() }
        var sentUsers = [Int](repeating: 0, count: workers), sentApps = [Int](repeating: 0, count: workers)
        var count = 0
        func send(_ w: Int) {
            batches[w].newUsers = Array(source.users.names[sentUsers[w]...])
            batches[w].newApps = Array(source.apps.names[sentApps[w]...])
            sentUsers[w] = source.users.count
            sentApps[w] = source.apps.count
            queues[w].put(batches[w])
            batches[w] = Batch()
        }
        do {
            while let e = try source.next() {
                let w = Int(e.user) % workers
                batches[w].events.append(e)
                if batches[w].events.count >= 8192 { send(w) }
                count += 1
                if count & 0xFFFF == 0 { progress(count, source.users.count, source.progress) }
            }
        } catch {
            for q in queues { q.close() }
            results.wait()
            throw error
        }
        for w in 0..<workers { send(w); queues[w].close() }
        results.wait()
        let parts = results.values
        return policies.indices.map { p in ReplayResult.merged(parts.map { $0[p] }) }
    }
}

/// A bounded queue of batches between the reader and one worker (back-pressure keeps memory
/// bounded). Guarded by its condition lock, hence `@unchecked Sendable`.
final class BatchQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [ParallelReplay.Batch] = []
    private var closed = false

    func put(_ batch: ParallelReplay.Batch) {
        condition.lock()
        while items.count >= 4 { condition.wait() }
        items.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    func take() -> ParallelReplay.Batch? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        if items.isEmpty { return nil }
        let b = items.removeFirst()
        condition.broadcast()
        return b
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

/// The workers' reports, and a wait for all of them. Guarded by its condition lock.
final class ResultBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var slots: [[ReplayResult]?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ reports: [ReplayResult]) {
        condition.lock()
        slots[i] = reports
        condition.broadcast()
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while slots.contains(where: { $0 == nil }) { condition.wait() }
        condition.unlock()
    }

    var values: [[ReplayResult]] {
        condition.lock()
        defer { condition.unlock() }
        return slots.map { $0! }
    }
}
