import FetchCore

/// Builds small usage logs by hand for tests: one call per event, times as local clock text.
///
///     var log = LogBuilder(date: (2025, 1, 6), offsetMinutes: 60)
///     log.open("news", at: "07:30")
///     let report = log.replay(ScriptedPolicy(...))
public struct LogBuilder {
    public let users = NameTable()
    public let apps = NameTable()
    public private(set) var events: [UsageEvent] = []
    public var user = "alice"
    public let offsetMinutes: Int
    public let day: Int64

    public init(date: (Int, Int, Int) = (2025, 1, 6), offsetMinutes: Int = 0) {
        self.offsetMinutes = offsetMinutes
        day = LocalTime.days(year: date.0, month: date.1, day: date.2)
    }

    /// The instant of a local clock time (`07:30`, `07:30:15`, `07:30:15.250`) on day `plusDays`.
    public func time(_ clock: String, plusDays: Int = 0) -> Instant {
        let parts = clock.split(separator: ":").map { Double($0)! }
        let ms = Int64(((parts[0] * 60 + parts[1]) * 60 + (parts.count > 2 ? parts[2] : 0)) * 1000)
        return Instant(millis: LocalTime.start(ofDay: day + Int64(plusDays), offsetMinutes: offsetMinutes) + ms)
    }

    public mutating func add(_ kind: EventKind, app: String? = nil, value: Int16 = 0, at clock: String, plusDays: Int = 0) {
        events.append(UsageEvent(time: time(clock, plusDays: plusDays), user: users.id(user),
                                 app: app.map { apps.id($0) } ?? -1, kind: kind, value: value,
                                 offsetMinutes: Int16(offsetMinutes)))
    }

    public mutating func open(_ app: String, at clock: String, plusDays: Int = 0) {
        add(.open, app: app, at: clock, plusDays: plusDays)
    }

    public mutating func push(_ app: String, _ kind: PushKind, at clock: String, plusDays: Int = 0) {
        add(.push, app: app, value: kind.rawValue, at: clock, plusDays: plusDays)
    }

    /// Replays the log (sorted by time, stable) under `policy`.
    public func replay(_ policy: any FetchPolicy, scenario: Scenario = .default, seed: UInt64 = 1,
                       trace: (any TraceSink)? = nil) -> ReplayResult {
        var source = ArraySource(events: events, users: users, apps: apps)
        let replay = makeReplay(policy: policy, scenario: scenario, seed: seed, users: users, apps: apps, trace: trace)
        try! source.run([replay])
        return replay.finish()
    }
}
