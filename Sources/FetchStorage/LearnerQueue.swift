import Dispatch
import FetchCore
import Synchronization

/// Feeds an ``IngestLearner`` on a queue of its own, so that learning runs on another core while
/// the ingest parses and inserts.
///
/// Events go over in batches, in the order they came, to one serial queue: the learner sees
/// exactly the sequence it would see in line, so the models are the same. At most a few batches
/// wait at a time; a producer ahead of the learner waits for room.
public struct LearnerQueue: ~Copyable {
    private final class Shared: Sendable {
        let queue = DispatchQueue(label: "fetchsched.ingest-learner")
        let learner = Mutex(IngestLearner())
        let room = DispatchSemaphore(value: LearnerQueue.batchesWaiting)
    }

    package static let batchSize = 4096
    package static let batchesWaiting = 4

    private let shared = Shared()
    private var batch: [(event: UsageEvent, app: Int64)] = []

    public init() { batch.reserveCapacity(Self.batchSize) }

    /// Takes an event of a user new to the store; `app` is its app's id in the store.
    public mutating func observe(_ e: UsageEvent, app: Int64) {
        batch.append((e, app))
        if batch.count == Self.batchSize { send() }
    }

    /// Whether the events came in time order per user, and the models learned (``IngestLearner``),
    /// once the learner has taken every event.
    public consuming func finish() -> (inOrder: Bool, models: [(user: Int32, model: UsageModel)]) {
        send()
        return shared.queue.sync {
            shared.learner.withLock { learner in (learner.inOrder, learner.finish()) }
        }
    }

    private mutating func send() {
        guard !batch.isEmpty else { return }
        let events = batch, shared = self.shared
        batch.removeAll(keepingCapacity: true)
        shared.room.wait()
        shared.queue.async {
            shared.learner.withLock { learner in
                for (e, app) in events { learner.observe(e, app: app) }
            }
            shared.room.signal()
        }
    }
}
