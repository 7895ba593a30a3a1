import FetchCore

/// Learns the usage models of users new to the store from the events an ingest inserts, so that
/// the ingest need not read them back.
///
/// A new user's stored events are exactly the ones this ingest read for it: nothing of theirs
/// was stored before, and the occurrence number keeps every row of an instant apart. The store
/// lists them by (time, kind, app's store id, value, occurrence), and the model depends on the
/// order within an instant, so each instant is observed in that order: the learned model is the
/// one a driver's `learnModels(users:)` would learn from the store. A source that lists a
/// user's events out of time order breaks that; the learner then says so (`inOrder`) and the
/// caller learns from the store instead.
public struct IngestLearner {
    /// One event of the instant being collected, with the store's sort key.
    private struct Pending {
        var event: UsageEvent
        var kind: UInt8
        var app: Int64
        var value: Int16
        /// Arrival order: occurrences of one row are stored, and read back, in it.
        var arrival: Int

        static func precedes(_ a: Pending, _ b: Pending) -> Bool {
            (a.kind, a.app, a.value, a.arrival) < (b.kind, b.app, b.value, b.arrival)
        }
    }

    /// Per source user id: its model, and its events of the instant being collected.
    private var models: [UsageModel?] = []
    private var pending: [[Pending]] = []
    public private(set) var inOrder = true

    public init() {}

    /// Takes an event of a user new to the store; `app` is its app's id in the store (0 for a
    /// device event).
    public mutating func observe(_ e: UsageEvent, app: Int64) {
        let u = Int(e.user)
        if u >= models.count {
            models.append(contentsOf: repeatElement(nil, count: u - models.count + 1))
            pending.append(contentsOf: repeatElement([], count: u - pending.count + 1))
        }
        if let first = pending[u].first, first.event.time != e.time {
            if e.time < first.event.time { inOrder = false }
            flush(u)
        }
        pending[u].append(Pending(event: e, kind: e.kind.rawValue, app: app, value: e.value, arrival: pending[u].count))
    }

    /// The models learned, by source user id, once every event is in.
    public mutating func finish() -> [(user: Int32, model: UsageModel)] {
        for u in pending.indices where !pending[u].isEmpty { flush(u) }
        return models.indices.compactMap { u in models[u].map { (Int32(u), $0) } }
    }

    private mutating func flush(_ u: Int) {
        if pending[u].count > 1 { pending[u].sort(by: Pending.precedes) }
        if case .none = models[u] { models[u] = UsageModel() }
        // In place: the model is large, and a copy out and back costs more than observing.
        for p in pending[u] { models[u]!.observe(p.event) }
        pending[u].removeAll(keepingCapacity: true)
    }
}
