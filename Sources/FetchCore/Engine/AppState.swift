/// What the engine knows of one app of one user; policies read it through ``UserView``.
public struct AppState: Sendable {
    public let id: Int32
    public let settings: AppSettings
    /// Start of the last fetch, `Int64.min` when there was none.
    public internal(set) var lastFetchStart: Int64 = .min
    public internal(set) var inFlight = false
    /// Content time of the last completed refresh (a fetch's start, or an open), or `Int64.min`.
    public internal(set) var refreshedAt: Int64 = .min
    public internal(set) var lastOpen: Int64 = .min
    public internal(set) var opens = 0
    public internal(set) var fetches = 0
    public internal(set) var newData = 0
    public internal(set) var noData = 0
    public internal(set) var failed = 0
    public internal(set) var terminated = 0
    /// Whether the app's last completed fetch hit its deadline.
    public internal(set) var lastFetchWasTerminated = false

    /// The counterfactual with no background fetch at all: refreshed by opens only.
    var openRefreshedAt: Int64 = .min
    /// The server's update process, for the `updates` content model.
    public internal(set) var updates: UpdateProcess?
    /// The last content update a push-planning policy was asked about.
    var updateDecided: Int64 = .min
    /// The first content update after `refreshedAt` seen so far, or `Int64.min`.
    var staleSince: Int64 = .min
    var pendingStart: Int64 = .min
    var pendingResult: FetchResult = .noData
    /// Whether the fetch under way was woken by a silent push …
    var pendingByPush = false
    /// … and whether the content's last refresh came from such a fetch.
    var refreshedByPush = false
    /// Constants of the app's settings, computed once: they are read at every request.
    let costs: FetchCosts

    init(id: Int32, settings: AppSettings, updates: UpdateProcess?, energy: EnergyModel) {
        self.id = id
        self.settings = settings
        self.updates = updates
        self.costs = FetchCosts(settings: settings, energy: energy)
    }

    /// Whether content refreshed at `refreshed` is still fresh at `t`. For the `updates`
    /// model the update process must have been advanced to `t`.
    public func isFresh(refreshed: Int64, at t: Int64) -> Bool {
        refreshed != .min && refreshed >= settings.content.freshFrom(open: t, lastUpdate: updates?.last ?? .min)
    }

    /// The interval rule (``FetchInterval/permits(start:after:)``) for a fetch starting at `t`.
    @inline(__always)
    public func intervalPermits(at t: Int64) -> Bool {
        settings.interval.permits(start: t, after: lastFetchStart)
    }

    /// Whether the server has content the app has not fetched (always, for a time window).
    var hasNewContent: Bool {
        if case .updates = settings.content { return (updates?.last ?? .min) > refreshedAt }
        return true
    }

    /// The user opens the app at `t`: the open refreshes its content.
    mutating func opened(at t: Int64) {
        refresh(contentTime: t)
        refreshedByPush = false
        openRefreshedAt = t
        lastOpen = t
        opens += 1
    }

    /// The engine starts a fetch at `t` whose outcome is `result`, woken by a push or not.
    mutating func started(at t: Int64, result: FetchResult, byPush: Bool) {
        inFlight = true
        lastFetchStart = t
        fetches += 1
        pendingStart = t
        pendingResult = result
        pendingByPush = byPush
    }

    /// The fetch under way ends; returns its result, now counted.
    mutating func finished() -> FetchResult {
        inFlight = false
        count(pendingResult)
        return pendingResult
    }

    /// The app reports a fetch it made itself, started at `start`.
    mutating func reported(start: Int64, result: FetchResult) {
        lastFetchStart = max(lastFetchStart, start)
        fetches += 1
        count(result)
    }

    /// Counts a fetch's result in the app's record (its reliability, for policies).
    mutating func count(_ result: FetchResult) {
        lastFetchWasTerminated = result == .terminated
        switch result {
        case .newData: newData += 1
        case .noData: noData += 1
        case .failed: failed += 1
        case .terminated: terminated += 1
        }
    }

    /// Moves the update process to `t`, noting when the content went stale.
    mutating func advanceContent(to t: Int64) {
        guard var p = updates, p.next <= t else { return }
        while p.next <= t {
            let u = p.step()
            if staleSince == .min && u > refreshedAt { staleSince = u }
        }
        updates = p
    }

    /// Records a refresh whose content is as of `contentTime`; call after `advanceContent`.
    mutating func refresh(contentTime: Int64) {
        refreshedAt = max(refreshedAt, contentTime)
        if let last = updates?.last, last > refreshedAt { staleSince = last } else { staleSince = .min }
    }

    /// How long content has been stale at `t`, for a stale open; nil when never refreshed.
    func staleness(at t: Int64) -> Int64? {
        guard refreshedAt != .min else { return nil }
        switch settings.content {
        case .window(let w): return max(0, t - refreshedAt - w)
        case .updates: return staleSince == .min ? 0 : max(0, t - staleSince)
        }
    }
}
