/// Feeds replays a batch of events at a time, each user's events of the batch together.
///
/// Users share no state in a replay (its context only sums their tallies, in integers),
/// so a user's events may run before another's earlier ones: each user still sees its own in
/// order, and the report is the one feeding every event in time order gives. What changes is
/// the memory the replay touches: one user's model and apps for a stretch of its events and
/// moments, instead of a different user's at every event, which with many users does not
/// stay in cache. The replays take each user's events of the batch in turn, a stretch
/// (``stretch``) at a time: what the points of a swept family share of a user's moments
/// (``SharedScores``) is then kept for a stretch, not for the user's whole batch.
///
/// A trace lists fetches in the order they run, so a replay that writes one is fed event by
/// event instead.
public struct UserGrouping {
    /// Events gathered before they run, by default: hundreds per user in a log of a thousand
    /// users, in some megabytes.
    public static let batchSize = 1 << 18

    /// A user's events each replay takes before the next replay takes them.
    public static let stretch = 4096

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
        Self.group(batch, into: &grouped, ends: &starts)
        var start = 0
        for end in starts where end > start {
            Self.feed(grouped[start..<end], to: replays)
            start = end
        }
        batch.removeAll(keepingCapacity: true)
    }

    /// One user's events, to every replay in turn, a stretch at a time.
    static func feed(_ run: ArraySlice<UsageEvent>, to replays: [ReplayDriver]) {
        var from = run.startIndex
        while from < run.endIndex {
            let to = min(run.endIndex, from + stretch)
            for r in replays {
                for e in run[from..<to] { r.consume(e) }
            }
            from = to
        }
    }

    /// Runs `events`, all of their users' events, through `replays` one user at a time, and
    /// retires each user after its last (``ReplayDriver/retire``): each replay holds one user's
    /// simulation at a time, whatever the number of users.
    public static func replayEach(_ events: [UsageEvent], through replays: [ReplayDriver]) {
        var grouped: [UsageEvent] = [], ends: [Int] = []
        group(events, into: &grouped, ends: &ends)
        var start = 0
        for (u, end) in ends.enumerated() where end > start {
            feed(grouped[start..<end], to: replays)
            for r in replays { r.retire(Int32(u)) }
            start = end
        }
    }

    /// `events` grouped by user in `grouped`, each user's in their order, users by id; user
    /// `u`'s events end at `ends[u]` (a counting sort by user id: stable).
    static func group(_ events: [UsageEvent], into grouped: inout [UsageEvent], ends: inout [Int]) {
        var users = 0
        for e in events { users = max(users, Int(e.user) + 1) }
        ends.removeAll(keepingCapacity: true)
        ends.append(contentsOf: repeatElement(0, count: users + 1))
        for e in events { ends[Int(e.user) + 1] += 1 }
        for u in 0..<users { ends[u + 1] += ends[u] }
        grouped.removeAll(keepingCapacity: true)
        grouped.append(contentsOf: events)
        for e in events {
            grouped[ends[Int(e.user)]] = e
            ends[Int(e.user)] += 1
        }
        ends.removeLast()
    }
}
