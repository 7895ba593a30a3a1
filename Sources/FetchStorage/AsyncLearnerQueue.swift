import FetchCore
import Synchronization

/// Feeds an ``IngestLearner`` from async code, learning on Swift's pool while the ingest parses
/// and copies: what ``LearnerQueue`` does for a synchronous ingest, without a thread that waits.
///
/// Events go over in batches, each to a task that waits for the one before it: the learner sees
/// exactly the sequence it would see in line, so the models are the same. ``observe(_:app:)``
/// never waits; the ingest calls ``room()`` at the points where it may (between writes), which
/// waits, suspended, until at most ``LearnerQueue/batchesWaiting`` batches are left to learn.
public struct AsyncLearnerQueue: ~Copyable, Sendable {
    private let learner = LearnerBox()
    private var batch: [(event: UsageEvent, app: Int64)] = []
    /// The batches handed over and not yet known learned, oldest first.
    private var handed: [Task<Void, Never>] = []

    /// The learner, behind a lock: each batch's task takes it after the one before has let go.
    private final class LearnerBox: Sendable {
        let state = Mutex(IngestLearner())
    }

    public init() { batch.reserveCapacity(LearnerQueue.batchSize) }

    /// Takes an event of a user new to the store; `app` is its app's id in the store.
    public mutating func observe(_ e: UsageEvent, app: Int64) {
        batch.append((e, app))
        if batch.count == LearnerQueue.batchSize { handOver() }
    }

    /// Returns once at most ``LearnerQueue/batchesWaiting`` batches wait to be learned.
    public mutating func room() async {
        while handed.count > LearnerQueue.batchesWaiting {
            await handed.removeFirst().value
        }
    }

    /// Whether the events came in time order per user, and the models learned (``IngestLearner``),
    /// once the learner has taken every event.
    public consuming func finish() async -> (inOrder: Bool, models: [(user: Int32, model: UsageModel)]) {
        handOver()
        for task in handed { await task.value }
        return learner.state.withLock { learner in (learner.inOrder, learner.finish()) }
    }

    private mutating func handOver() {
        guard !batch.isEmpty else { return }
        let events = batch, learner = self.learner, previous = handed.last
        batch.removeAll(keepingCapacity: true)
        handed.append(Task {
            await previous?.value
            learner.state.withLock { learner in
                for (e, app) in events { learner.observe(e, app: app) }
            }
        })
    }
}
