import FetchCore
import FetchStorage
import Foundation
import Synchronization

/// Replays over all cores: the reading task routes each user's events, in order, to one of
/// `workers` threads (by user id), each running its own replays of every policy; the reports are
/// merged at the end (``ReplayResult/merged(_:)``), byte-identical to a single-threaded run.
///
/// Workers keep their own name tables, fed with each batch's new names, so nothing mutable is
/// shared between threads but the batch queues. The reader waits for room in a queue, and for
/// the workers' reports, suspended: it holds no thread of Swift's pool while it waits.
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

    nonisolated(nonsending) func run<S: UsageEventBatches>(
        _ source: inout S, progress: (_ events: Int, _ users: Int, _ done: Double?) -> Void
    ) async throws -> [ReplayResult] {
        let queues = (0..<workers).map { _ in BatchQueue() }
        let results = ResultBox(count: workers)
        let threads = queues.enumerated().map { i, queue in
            Thread { [policies, scenario, seed] in
                let users = NameTable(), apps = NameTable()
                let replays = makeReplays(policies: policies, scenario: scenario, seed: seed, users: users, apps: apps)
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
        nonisolated(nonsending) func send(_ w: Int) async {
            batches[w].newUsers = Array(source.users.names[sentUsers[w]...])
            batches[w].newApps = Array(source.apps.names[sentApps[w]...])
            sentUsers[w] = source.users.count
            sentApps[w] = source.apps.count
            await queues[w].put(batches[w])
            batches[w] = Batch()
        }
        do {
            while let batch = try await source.nextBatch() {
                for e in batch { batches[Int(e.user) % workers].events.append(e) }
                for w in 0..<workers where batches[w].events.count >= 8192 { await send(w) }
                let before = count
                count += batch.count
                if count >> 16 != before >> 16 { progress(count, source.users.count, source.progress) }
            }
        } catch {
            for q in queues { q.close() }
            await results.wait()
            throw error
        }
        for w in 0..<workers { await send(w); queues[w].close() }
        await results.wait()
        let parts = results.values
        return policies.indices.map { p in ReplayResult.merged(parts.map { $0[p] }) }
    }
}

/// A bounded queue of batches between the reader and one worker (back-pressure keeps memory
/// bounded): the worker, a thread of its own, waits on the condition; the reader, a task,
/// suspends until there is room. Guarded by its condition lock, hence `@unchecked Sendable`.
final class BatchQueue: @unchecked Sendable {
    /// The batches a queue holds before the reader waits.
    static let capacity = 4
    private let condition = NSCondition()
    private var items: [ParallelReplay.Batch] = []
    private var closed = false
    /// The reader, suspended until a take makes room.
    private var waiting: CheckedContinuation<Void, Never>?

    func put(_ batch: ParallelReplay.Batch) async {
        while !condition.withLock({ tryPut(batch) }) {
            await withCheckedContinuation { (room: CheckedContinuation<Void, Never>) in
                condition.lock()
                if items.count < Self.capacity {
                    condition.unlock()
                    room.resume()
                } else {
                    waiting = room
                    condition.unlock()
                }
            }
        }
    }

    /// Appends `batch` when there is room (under the lock); whether it did.
    private func tryPut(_ batch: ParallelReplay.Batch) -> Bool {
        guard items.count < Self.capacity else { return false }
        items.append(batch)
        condition.broadcast()
        return true
    }

    func take() -> ParallelReplay.Batch? {
        condition.lock()
        while items.isEmpty && !closed { condition.wait() }
        guard !items.isEmpty else {
            condition.unlock()
            return nil
        }
        let b = items.removeFirst()
        let reader = waiting
        waiting = nil
        condition.unlock()
        reader?.resume()
        return b
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

/// The workers' reports, and a wait for all of them that suspends the waiting task.
final class ResultBox: Sendable {
    private struct State {
        var slots: [[ReplayResult]?]
        var waiting: CheckedContinuation<Void, Never>?
        var complete: Bool { !slots.contains { $0 == nil } }
    }
    private let state: Mutex<State>

    init(count: Int) { state = Mutex(State(slots: Array(repeating: nil, count: count))) }

    func set(_ i: Int, _ reports: [ReplayResult]) {
        let waiting = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.slots[i] = reports
            guard s.complete else { return nil }
            defer { s.waiting = nil }
            return s.waiting
        }
        waiting?.resume()
    }

    /// Returns once every worker has set its reports.
    func wait() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.complete { return true }
                s.waiting = done
                return false
            }
            if now { done.resume() }
        }
    }

    var values: [[ReplayResult]] { state.withLock { $0.slots.map { $0! } } }
}
