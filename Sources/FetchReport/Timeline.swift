import FetchCore
/// One user's day as the report draws it: the device context from the log, and per policy the
/// opens (fresh or stale) and the fetches (by result).
public struct Timeline: Sendable {
    public struct Open: Sendable {
        public var time: Int64
        public var app: String
        public var fresh: Bool
        public var rescued: Bool
    }

    public struct Fetch: Sendable {
        public var time: Int64
        public var durationMs: Int64
        public var app: String
        public var result: FetchResult
    }

    public var user: String
    public var day: Int64 = 0
    public var offsetMinutes = 0
    /// The user's log events of the day (context, wakes, opens).
    public var events: [UsageEvent] = []
    /// The device context at the start of the day.
    public var startContext = DeviceContext()
    /// The policies drawn, in order: those a run was asked for by name, not the points of a sweep.
    public var policies: [String] = []
    public var opens: [String: [Open]] = [:]
    public var fetches: [String: [Fetch]] = [:]

    public init(user: String) { self.user = user }
}

/// Records one user's opens and fetches under one policy, for the report's timeline.
public final class TimelineRecorder: TraceSink {
    /// Whose opens and fetches to keep; may be set once the first event names the user.
    public var user: String
    let users: NameTable
    let apps: NameTable
    public private(set) var opens: [Timeline.Open] = []
    public private(set) var fetches: [Timeline.Fetch] = []

    public init(user: String, users: NameTable, apps: NameTable) {
        self.user = user
        self.users = users
        self.apps = apps
    }

    public func record(_ row: TraceRow) {
        guard row.refusal == nil, let result = row.result, users[row.user] == user else { return }
        fetches.append(.init(time: row.start, durationMs: row.durationMs, app: apps[row.app], result: result))
    }

    public func recordOpen(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, fresh: Bool, rescued: Bool) {
        guard users[user] == self.user else { return }
        opens.append(.init(time: time, app: apps[app], fresh: fresh, rescued: rescued))
    }
}
