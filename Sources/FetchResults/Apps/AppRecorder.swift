import FetchCore

/// Follows each app of each user through one policy's replay: what an app developer asks of a
/// background refresh (how often it runs, how long after install, how long between runs, and
/// whether it made the opens fresh). ``AppReport`` sums it per app.
///
/// A fetch is a background fetch that ran (a refused request is not one); an open is the app's
/// open as the replay saw it, fresh or stale, rescued when only a fetch made it fresh.
public final class AppRecorder: TraceSink {
    /// One app of one user.
    struct Use {
        var opens = 0, fresh = 0, rescued = 0, fetches = 0
        /// The local day of the app's first open or fetch: its days count from there.
        var firstDay: Int64
        var firstOpen: Int64?
        /// Milliseconds from the first open to the first fetch that started at or after it.
        var firstFetchAfterOpen: Int64?
        var lastFetch: Int64?
        /// Local days with at least one fetch.
        var fetchDays: Set<Int64> = []
    }

    let users: NameTable
    let apps: NameTable
    private(set) var uses: [UserApp: Use] = [:]
    /// Each user's last local day with an open or a fetch of any app.
    private(set) var lastDay: [Int32: Int64] = [:]
    /// Per app, the gaps between a user's successive fetches of it, in whole minutes: minutes to count.
    private(set) var gaps: [Int32: [Int64: Int]] = [:]

    public init(users: NameTable, apps: NameTable) {
        self.users = users
        self.apps = apps
    }

    struct UserApp: Hashable {
        var user: Int32
        var app: Int32
    }

    public func record(_ row: TraceRow) {
        guard row.refusal == nil, row.result != nil else { return }
        let day = seen(user: row.user, time: row.start, offsetMinutes: row.offsetMinutes)
        let key = UserApp(user: row.user, app: row.app)
        var use = uses[key] ?? Use(firstDay: day)
        use.fetches += 1
        use.fetchDays.insert(day)
        if let open = use.firstOpen, use.firstFetchAfterOpen == nil, row.start >= open { use.firstFetchAfterOpen = row.start - open }
        if let last = use.lastFetch { gaps[row.app, default: [:]][(row.start - last) / Millis.minute, default: 0] += 1 }
        use.lastFetch = row.start
        uses[key] = use
    }

    public func recordOpen(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, fresh: Bool, rescued: Bool) {
        let day = seen(user: user, time: time, offsetMinutes: offsetMinutes)
        let key = UserApp(user: user, app: app)
        var use = uses[key] ?? Use(firstDay: day)
        use.opens += 1
        if fresh { use.fresh += 1 }
        if rescued { use.rescued += 1 }
        if use.firstOpen == nil { use.firstOpen = time }
        uses[key] = use
    }

    /// The local day of `time`, kept as the user's last day seen.
    private func seen(user: Int32, time: Int64, offsetMinutes: Int16) -> Int64 {
        let day = LocalTime.day(time, offsetMinutes: Int(offsetMinutes))
        lastDay[user] = max(lastDay[user] ?? day, day)
        return day
    }
}
