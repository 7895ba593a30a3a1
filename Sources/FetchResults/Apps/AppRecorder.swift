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
        /// Local days with at least one fetch; the first and last of them; the longest run of
        /// days without one between two of them. A user's rows come in time order, so a day
        /// with a fetch is new when it is not the last one's.
        var fetchDays = 0, firstFetchDay: Int64?, lastFetchDay: Int64?, longestBetween = 0
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
        // Changed in place: a copy out of the dictionary and back would cost a hash more per row.
        let gap: Int64? = modify(UserApp(user: row.user, app: row.app), day: day) { use in
            use.fetches += 1
            if let last = use.lastFetchDay {
                if day > last {
                    use.fetchDays += 1
                    use.longestBetween = max(use.longestBetween, Int(day - last - 1))
                    use.lastFetchDay = day
                }
            } else {
                use.fetchDays = 1
                use.firstFetchDay = day
                use.lastFetchDay = day
            }
            if let open = use.firstOpen, use.firstFetchAfterOpen == nil, row.start >= open { use.firstFetchAfterOpen = row.start - open }
            defer { use.lastFetch = row.start }
            return use.lastFetch.map { row.start - $0 }
        }
        if let gap { gaps[row.app, default: [:]][gap / Millis.minute, default: 0] += 1 }
    }

    public func recordOpen(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, fresh: Bool, rescued: Bool) {
        let day = seen(user: user, time: time, offsetMinutes: offsetMinutes)
        modify(UserApp(user: user, app: app), day: day) { use in
            use.opens += 1
            if fresh { use.fresh += 1 }
            if rescued { use.rescued += 1 }
            if use.firstOpen == nil { use.firstOpen = time }
        }
    }

    /// Runs `body` on the use of `key`, begun on `day` if new, in place.
    @discardableResult
    private func modify<R>(_ key: UserApp, day: Int64, _ body: (inout Use) -> R) -> R {
        body(&uses[key, default: Use(firstDay: day)])
    }

    /// The local day of `time`, kept as the user's last day seen.
    private func seen(user: Int32, time: Int64, offsetMinutes: Int16) -> Int64 {
        let day = LocalTime.day(time, offsetMinutes: Int(offsetMinutes))
        lastDay[user] = max(lastDay[user] ?? day, day)
        return day
    }
}
