/// Feeds replays a batch of events at a time, each user's events of the batch together.
///
/// Users share no state in a replay (its context only sums their tallies, in integers),
/// so a user's events may run before another's earlier ones: each user still sees its own in
/// order, and the report is the one feeding every event in time order gives. What changes is
/// the memory the replay touches: one user's model and apps for a stretch of its events and
/// moments, instead of a different user's at every event, which with many users does not
/// stay in cache. Each replay takes the whole batch before the next, for the same reason.
///
/// A trace lists fetches in the order they run, so a replay that writes one is fed event by
/// event instead.
public struct UserGrouping {
    /// Events gathered before they run, by default: hundreds per user in a log of a thousand
    /// users, in some megabytes.
    public static let batchSize = 1 << 18

    /// Events gathered before they run, in this grouping.
    public let batchSize: Int
    private var batch: [UsageEvent] = []
    private var grouped: [UsageEvent] = []
    private var starts: [Int] = []

    /// - Parameter batchSize: events gathered before they run, at least 1.
    public init(batchSize: Int = UserGrouping.batchSize) {
        self.batchSize = max(1, batchSize)
        batch.reserveCapacity(self.batchSize)
    }

    /// Adds an event; when the batch is full, runs it through `replays`.
    public mutating func add(_ e: UsageEvent, to replays: [ReplayDriver]) {
        batch.append(e)
        if batch.count >= batchSize { flush(to: replays) }
    }

    /// Runs the events gathered so far through `replays`, each user's together, in order.
    public mutating func flush(to replays: [ReplayDriver]) {
        guard !batch.isEmpty else { return }
        // A counting sort by user id: stable, so each user's events keep their order.
        var users = 0
        for e in batch { users = max(users, Int(e.user) + 1) }
        starts.removeAll(keepingCapacity: true)
        starts.append(contentsOf: repeatElement(0, count: users + 1))
        for e in batch { starts[Int(e.user) + 1] += 1 }
        for u in 0..<users { starts[u + 1] += starts[u] }
        grouped.removeAll(keepingCapacity: true)
        grouped.append(contentsOf: batch)
        for e in batch {
            grouped[starts[Int(e.user)]] = e
            starts[Int(e.user)] += 1
        }
        for r in replays {
            for e in grouped { r.consume(e) }
        }
        batch.removeAll(keepingCapacity: true)
    }
}
