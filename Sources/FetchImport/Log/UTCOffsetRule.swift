import FetchCore

/// The user's UTC offset: fixed, or looked up per instant (a time zone with daylight saving,
/// given by the caller so the core keeps no clock and no zone database).
public struct UTCOffsetRule: Sendable {
    /// Offset in minutes at a UTC instant in milliseconds.
    public let offsetAt: @Sendable (Int64) -> Int
    public let name: String

    public init(name: String, offsetAt: @escaping @Sendable (Int64) -> Int) {
        self.name = name
        self.offsetAt = offsetAt
    }

    public static func fixed(minutes: Int) -> UTCOffsetRule {
        UTCOffsetRule(name: LocalTime.offsetText(minutes)) { _ in minutes }
    }

    /// Offsets a log may carry: within ±18 hours (``InputBounds/offsetMinutes``).
    public static let maxMinutes = InputBounds.offsetMinutes.upperBound

    /// Every UTC instant whose local wall-clock time is `wall`, earliest first: one most of the
    /// time, two in the hour a fall-back repeats, none in the hour a spring-forward skips.
    /// (A zone changes its offset far less often than once a day, so the offsets a day before
    /// and a day after are all the offsets `wall` could be read with.)
    public func instants(fromLocal wall: Int64) -> [(millis: Int64, offsetMinutes: Int)] {
        var found: [(millis: Int64, offsetMinutes: Int)] = []
        for probe in [wall - Millis.day, wall + Millis.day] {
            let offset = offsetAt(probe)
            let millis = wall - Int64(offset) * Millis.minute
            if offsetAt(millis) == offset && !found.contains(where: { $0.millis == millis }) { found.append((millis, offset)) }
        }
        return found.sorted { $0.millis < $1.millis }
    }

    /// Parses `+02:00`, `-05:30`, `Z`, or `+0200`.
    public static func parseOffset(_ text: String) -> Int? {
        if text == "Z" || text == "+00:00" { return 0 }
        let chars = Array(text.utf8)
        guard chars.count == 6 || chars.count == 5, chars[0] == UInt8(ascii: "+") || chars[0] == UInt8(ascii: "-") else { return nil }
        let digits = chars.count == 6 ? [chars[1], chars[2], chars[4], chars[5]] : Array(chars[1...4])
        guard chars.count == 5 || chars[3] == UInt8(ascii: ":"), digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let d = digits.map { Int($0 - 48) }
        let minutes = (d[0] * 10 + d[1]) * 60 + d[2] * 10 + d[3]
        guard d[2] * 10 + d[3] < 60, minutes <= maxMinutes else { return nil }
        return chars[0] == UInt8(ascii: "-") ? -minutes : minutes
    }
}
