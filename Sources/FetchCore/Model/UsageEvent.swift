/// One row of a usage log, with its names interned.
///
/// `value` holds the event's value: the battery level (0-100), a ``Network`` raw value,
/// Low Power Mode (1 on, 0 off), a ``PushKind`` raw value, or 0.
public struct UsageEvent: Hashable, Sendable {
    public var time: Instant
    public var user: Int32
    /// The app's id, or -1 for device events.
    public var app: Int32
    public var value: Int16
    /// The user's UTC offset at this event, in minutes: local time is what habits follow.
    public var offsetMinutes: Int16
    public var kind: EventKind
    /// Whether the log wrote the timestamp as Unix seconds rather than ISO-8601.
    public var unixForm: Bool

    public init(time: Instant, user: Int32, app: Int32 = -1, kind: EventKind, value: Int16 = 0,
                offsetMinutes: Int16 = 0, unixForm: Bool = false) {
        self.time = time
        self.user = user
        self.app = app
        self.value = value
        self.offsetMinutes = offsetMinutes
        self.kind = kind
        self.unixForm = unixForm
    }

    /// Whether `self` goes before `other` among events of one user at the same instant.
    ///
    /// Logs list simultaneous events in any order; the engine sorts them by this key so that
    /// a replay does not depend on it: context first, then wakes, opens, and screen_off last.
    @inlinable
    public func canonicallyPrecedes(_ other: UsageEvent) -> Bool {
        if kind != other.kind { return kind.canonicalRank < other.kind.canonicalRank }
        if app != other.app { return app < other.app }
        return value < other.value
    }
}
