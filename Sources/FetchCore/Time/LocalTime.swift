/// Wall-clock arithmetic for an instant seen at a UTC offset: local days, weekdays, ISO text.
///
/// Days are counted from 1970-01-01 in local time; the civil-date conversions are Howard
/// Hinnant's algorithms, exact for the proleptic Gregorian calendar.
public enum LocalTime {
    /// The local day number (days since 1970-01-01 local) of `t` at `offsetMinutes`.
    @inlinable
    public static func day(_ t: Int64, offsetMinutes: Int) -> Int64 {
        floorDiv(t + Int64(offsetMinutes) * Millis.minute, Millis.day)
    }

    /// The instant at which local day `day` starts, at `offsetMinutes`.
    @inlinable
    public static func start(ofDay day: Int64, offsetMinutes: Int) -> Int64 {
        day * Millis.day - Int64(offsetMinutes) * Millis.minute
    }

    /// Milliseconds since local midnight.
    @inlinable
    public static func millisOfDay(_ t: Int64, offsetMinutes: Int) -> Int64 {
        let local = t + Int64(offsetMinutes) * Millis.minute
        return local - floorDiv(local, Millis.day) * Millis.day
    }

    /// 0 = Monday … 6 = Sunday.
    @inlinable
    public static func weekday(ofDay day: Int64) -> Int {
        Int(floorMod(day + 3, 7))
    }

    @inlinable
    public static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inlinable
    public static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }

    /// Days since 1970-01-01 of a civil date.
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number.
    public static func civil(day: Int64) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `2023-12-11`.
    public static func dateText(day: Int64) -> String {
        let c = civil(day: day)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))"
    }

    /// `2023-12-11T00:50:36.479+01:00`.
    ///
    /// Total: an instant outside years 0001–9999, or an offset beyond ±18 hours, is shown at the
    /// nearest one inside (the arithmetic would overflow on `Int64.min`, which stands for "never").
    public static func isoText(_ t: Int64, offsetMinutes: Int) -> String {
        let offsetMinutes = min(max(offsetMinutes, -maxOffsetMinutes), maxOffsetMinutes)
        let t = min(max(t, Self.textRange.lowerBound), Self.textRange.upperBound)
        let d = day(t, offsetMinutes: offsetMinutes)
        let ms = millisOfDay(t, offsetMinutes: offsetMinutes)
        let h = Int(ms / Millis.hour), m = Int(ms / Millis.minute % 60)
        let s = Int(ms / 1000 % 60), f = Int(ms % 1000)
        return "\(dateText(day: d))T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3))\(offsetText(offsetMinutes))"
    }

    /// The instants ``isoText(_:offsetMinutes:)`` shows as they are: 0001-01-01 to 9999-12-31, UTC.
    static let textRange: ClosedRange<Int64> = -62_135_596_800_000 ... 253_402_300_799_999

    /// The largest UTC offset, in minutes, east or west: 18 hours, as ISO-8601 and every time zone
    /// allow (``InputBounds/offsetMinutes`` bounds outside input by it).
    public static let maxOffsetMinutes = 18 * 60

    /// `+01:00`, `-05:30`.
    public static func offsetText(_ minutes: Int) -> String {
        let sign = minutes < 0 ? "-" : "+"
        let a = abs(minutes)
        return "\(sign)\(pad(a / 60, 2)):\(pad(a % 60, 2))"
    }

    /// `1700000000.123` (Unix seconds, milliseconds only when there are any).
    public static func unixText(_ t: Int64) -> String {
        let s = floorDiv(t, 1000), f = Int(floorMod(t, 1000))
        return f == 0 ? "\(s)" : "\(s).\(pad(f, 3))"
    }

    /// `07:24`.
    public static func clockText(_ t: Int64, offsetMinutes: Int) -> String {
        let ms = millisOfDay(t, offsetMinutes: offsetMinutes)
        return "\(pad(Int(ms / Millis.hour), 2)):\(pad(Int(ms / Millis.minute % 60), 2))"
    }

    package static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
