/// Parses log timestamps: ISO-8601 with a UTC offset (`2023-12-11T00:50:36.479+01:00`, `Z`
/// for UTC) or Unix seconds (`1702252236`, `1702252236.479`).
///
/// Hand-written over bytes because it runs once per log row; Foundation's formatters are
/// several times slower and accept forms without an offset, which habits cannot use.
public enum TimestampParser {
    public struct Parsed: Sendable {
        public var millis: Int64
        public var offsetMinutes: Int16
        package var unixForm: Bool
    }

    /// Parses a timestamp given as text (a command-line option, a request field).
    public static func parse(text: String) throws(RowProblem) -> Parsed {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { (b) throws(RowProblem) in try parse(UnsafeBufferPointer(b)) }
    }

    public static func parse(_ b: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> Parsed {
        var lastDay = DayCache()
        return try parse(b, lastDay: &lastDay)
    }

    /// Parses a timestamp, taking the day from `lastDay` when its date is the one read last
    /// (and remembering it otherwise).
    public static func parse(_ b: UnsafeBufferPointer<UInt8>, lastDay: inout DayCache) throws(RowProblem) -> Parsed {
        if b.count >= 10 && b[4] == UInt8(ascii: "-") {
            if let p = try canonical(b, lastDay: &lastDay) { return p }
            return try iso(b)
        }
        return try unix(b)
    }

    /// The date part of the last timestamp in the log's own form and its day number.
    ///
    /// A log's rows come in time order, so most of them repeat the date of the row before; its
    /// ten bytes compared as two words stand for reading, checking and counting the date again.
    public struct DayCache: Sendable {
        var head: UInt64 = 0  // `YYYY-MM-`; no valid date has these zero bytes
        var tail: UInt16 = 0  // `DD`
        var day: Int64 = 0
        public init() {}
    }

    static func unix(_ b: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> Parsed {
        var i = 0, negative = false
        if i < b.count && b[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var seconds: Int64 = 0, digits = 0
        while i < b.count, let d = digit(b[i]) {
            guard digits < 12 else { throw bad(b, "is out of range") }
            seconds = seconds * 10 + d; digits += 1; i += 1
        }
        guard digits > 0 else { throw bad(b, "is neither ISO-8601 nor Unix seconds") }
        var millis = seconds * 1000
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            var scale: Int64 = 100, fracDigits = 0
            while i < b.count, let d = digit(b[i]) { millis += d * scale; scale /= 10; i += 1; fracDigits += 1 }
            guard fracDigits > 0 else { throw bad(b, "has an empty fraction") }
        }
        guard i == b.count else { throw bad(b, "is neither ISO-8601 nor Unix seconds") }
        return try bounded(Parsed(millis: negative ? -millis : millis, offsetMinutes: 0, unixForm: true), b)
    }

    static func iso(_ b: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> Parsed {
        var i = 0
        func number(_ width: Int) throws(RowProblem) -> Int {
            var v = 0
            for _ in 0..<width {
                guard i < b.count, let d = digit(b[i]) else { throw bad(b, "is not ISO-8601 (expected a digit at \(i + 1))") }
                v = v * 10 + Int(d); i += 1
            }
            return v
        }
        func expect(_ c: UInt8) throws(RowProblem) {
            guard i < b.count, b[i] == c else { throw bad(b, "is not ISO-8601 (expected '\(Character(UnicodeScalar(c)))' at \(i + 1))") }
            i += 1
        }
        let year = try number(4); try expect(UInt8(ascii: "-"))
        let month = try number(2); try expect(UInt8(ascii: "-"))
        let day = try number(2)
        guard i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: " ") else {
            throw bad(b, "has no time of day")
        }
        i += 1
        let hour = try number(2); try expect(UInt8(ascii: ":"))
        let minute = try number(2)
        var second = 0
        if i < b.count && b[i] == UInt8(ascii: ":") { i += 1; second = try number(2) }
        var ms: Int64 = 0
        if i < b.count && (b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",")) {
            i += 1
            var scale: Int64 = 100, fracDigits = 0
            while i < b.count, let d = digit(b[i]) { ms += d * scale; scale /= 10; i += 1; fracDigits += 1 }
            guard fracDigits > 0 else { throw bad(b, "has an empty fraction of a second") }
        }
        try checkDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, b)
        guard i < b.count else { throw bad(b, "has no UTC offset (add Z or +HH:MM)") }
        var offset = 0
        if b[i] == UInt8(ascii: "Z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            let oh = try number(2)
            var om = 0
            if i < b.count && b[i] == UInt8(ascii: ":") { i += 1 }
            if i < b.count { om = try number(2) }
            guard let minutes = offsetMinutes(hours: oh, minutes: om) else { throw bad(b, "has an invalid UTC offset") }
            offset = sign * minutes
        } else {
            throw bad(b, "has no UTC offset (add Z or +HH:MM)")
        }
        guard i == b.count else { throw bad(b, "has trailing characters") }
        return try compose(year: year, month: month, day: day, hour: hour, minute: minute, second: second, ms: ms, offset: offset, b)
    }

    /// The log's own form, `YYYY-MM-DDTHH:MM:SS.mmm+HH:MM` (or `…mmmZ`), read at fixed
    /// positions; nil for any other form, which ``iso(_:)`` then reads (and reports on).
    ///
    /// A fast path because nearly every row of a log written by this tool has this form.
    static func canonical(_ b: UnsafeBufferPointer<UInt8>, lastDay: inout DayCache) throws(RowProblem) -> Parsed? {
        let zulu = b.count == 24
        guard b.count == 29 || zulu else { return nil }
        @inline(__always) func at(_ i: Int, _ c: Unicode.Scalar) -> Bool { b[i] == UInt8(truncatingIfNeeded: c.value) }
        guard at(4, "-"), at(7, "-"), at(10, "T"), at(13, ":"), at(16, ":"), at(19, ".") else { return nil }
        var nonDigit = false
        @inline(__always) func num(_ i: Int, _ width: Int) -> Int {
            var v = 0
            for j in i..<(i + width) {
                let d = b[j] &- 48
                nonDigit = nonDigit || d > 9
                v = v &* 10 &+ Int(d)
            }
            return v
        }
        let raw = UnsafeRawPointer(b.baseAddress!)
        let head = raw.loadUnaligned(as: UInt64.self), tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        var days: Int64?  // nil: not a valid date (reported once every field is known to be digits)
        if head == lastDay.head && tail == lastDay.tail {
            days = lastDay.day
        } else {
            let year = num(0, 4), month = num(5, 2), day = num(8, 2)
            if !nonDigit && validDate(year: year, month: month, day: day) {
                let d = LocalTime.days(year: year, month: month, day: day)
                (days, lastDay.head, lastDay.tail, lastDay.day) = (d, head, tail, d)
            }
        }
        let hour = num(11, 2), minute = num(14, 2), second = num(17, 2), ms = num(20, 3)
        var offset = 0
        if zulu {
            guard at(23, "Z") else { return nil }
        } else {
            guard at(23, "+") || at(23, "-"), at(26, ":") else { return nil }
            let oh = num(24, 2), om = num(27, 2)
            guard !nonDigit, let minutes = offsetMinutes(hours: oh, minutes: om) else { return nil }
            offset = (at(23, "-") ? -1 : 1) * minutes
        }
        guard !nonDigit else { return nil }
        guard let days, validTime(hour: hour, minute: minute, second: second) else { throw bad(b, "is not a valid date and time") }
        return try compose(days: days, hour: hour, minute: minute, second: second, ms: Int64(ms), offset: offset, b)
    }

    /// An offset's size in minutes: at most 18:00, as ISO-8601 and every time zone allow.
    static func offsetMinutes(hours: Int, minutes: Int) -> Int? {
        guard minutes < 60 else { return nil }
        let total = hours * 60 + minutes
        return total <= InputBounds.offsetMinutes.upperBound ? total : nil
    }

    static func checkDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                          _ b: UnsafeBufferPointer<UInt8>) throws(RowProblem) {
        guard validDate(year: year, month: month, day: day), validTime(hour: hour, minute: minute, second: second) else {
            throw bad(b, "is not a valid date and time")
        }
    }

    @inline(__always)
    static func validDate(year: Int, month: Int, day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= LocalTime.daysInMonth(year: year, month: month)
    }

    @inline(__always)
    static func validTime(hour: Int, minute: Int, second: Int) -> Bool {
        hour < 24 && minute < 60 && second < 60
    }

    static func compose(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, ms: Int64, offset: Int,
                        _ b: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> Parsed {
        try compose(days: LocalTime.days(year: year, month: month, day: day), hour: hour, minute: minute, second: second,
                    ms: ms, offset: offset, b)
    }

    static func compose(days: Int64, hour: Int, minute: Int, second: Int, ms: Int64, offset: Int,
                        _ b: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> Parsed {
        let local = days * Millis.day + Int64(hour) * Millis.hour + Int64(minute) * Millis.minute + Int64(second) * 1000 + ms
        return try bounded(Parsed(millis: local - Int64(offset) * Millis.minute, offsetMinutes: Int16(offset), unixForm: false), b)
    }

    /// Every timestamp lies within ``InputBounds/timestamps``.
    static func bounded(_ p: Parsed, _ b: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> Parsed {
        guard InputBounds.timestamps.contains(p.millis) else { throw bad(b, "is outside 1970-01-01T00:00:00Z to 2100-01-01T00:00:00Z") }
        return p
    }

    @inline(__always)
    static func digit(_ c: UInt8) -> Int64? {
        c >= 48 && c <= 57 ? Int64(c - 48) : nil
    }

    static func bad(_ b: UnsafeBufferPointer<UInt8>, _ what: String) -> RowProblem {
        RowProblem(.badTimestamp, "timestamp '\(InputBounds.printable(b))' \(what)", field: "timestamp")
    }
}
