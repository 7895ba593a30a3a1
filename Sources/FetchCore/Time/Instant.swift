/// A moment on the UTC timeline, in milliseconds since the Unix epoch.
///
/// Instants are monotonic simulation time. Never do calendar arithmetic on them directly:
/// pair them with the user's UTC offset through ``LocalTime``.
public struct Instant: Comparable, Hashable, Sendable {
    public var millis: Int64

    public init(millis: Int64) { self.millis = millis }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.millis < rhs.millis }
    public static func + (lhs: Instant, rhs: Int64) -> Instant { Instant(millis: lhs.millis + rhs) }
    public static func - (lhs: Instant, rhs: Int64) -> Instant { Instant(millis: lhs.millis - rhs) }
    public static func - (lhs: Instant, rhs: Instant) -> Int64 { lhs.millis - rhs.millis }
}

/// Millisecond constants for durations, which are plain `Int64` milliseconds throughout.
public enum Millis {
    public static let second: Int64 = 1_000
    public static let minute: Int64 = 60_000
    public static let hour: Int64 = 3_600_000
    public static let day: Int64 = 86_400_000
    /// The completion deadline of a background fetch (docs/hard-rules.md, rule 3).
    public static let deadline: Int64 = 30_000
}
