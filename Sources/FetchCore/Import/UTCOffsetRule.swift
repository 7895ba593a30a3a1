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

    /// Offsets a log may carry: within ±18 hours, as ISO-8601 allows.
    public static let maxMinutes = 18 * 60

    /// The UTC instant of a local wall-clock time: the offset is the one in force then (the
    /// earlier reading when a clock change makes the wall time occur twice).
    public func utc(fromLocal wall: Int64) -> (millis: Int64, offsetMinutes: Int) {
        let first = offsetAt(wall)
        let guess = wall - Int64(first) * Millis.minute
        let offset = offsetAt(guess)
        return (wall - Int64(offset) * Millis.minute, offset)
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
