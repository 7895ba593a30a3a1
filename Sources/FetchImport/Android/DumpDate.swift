import FetchCore

/// The local date and time of a usage-statistics dump's event line, as the phone printed it.
///
/// Android 10 and later print `2024-03-11 14:26:15`; older releases print the date as the
/// phone's locale writes it: `03/09/2017 21:18` (Portuguese, day first), `3/9/17 9:18 PM`
/// (US English, month first), `09.03.2017 21:18:05` (German), `2017/3/9 21:18` (Japanese), with
/// or without seconds, with a 12-hour clock or not. A date whose day and month could be either
/// way round (both 12 or less) needs the order from the caller (`--date-order`).
public enum DumpDate {
    public enum Order: String, Sendable, CaseIterable {
        case ymd, dmy, mdy
    }

    /// Milliseconds of the wall clock `text` reads, as if UTC.
    public static func wallClock(_ text: String, order: Order?) throws(ImportProblem) -> Int64 {
        guard text.utf8.count <= 40 else { throw bad(text, "is not a date and time") }
        // Split the date from the time at the first space (or ", ") after the date's digits.
        let normal = text.replacing("\u{202F}", with: " ").replacing("\u{00A0}", with: " ").replacing(", ", with: " ")
        let pieces = normal.split(separator: " ", omittingEmptySubsequences: true)
        guard pieces.count == 2 || pieces.count == 3 else {
            throw bad(text, "is not a date and a time in digits as a dump prints them (2024-03-11 14:26:15, 11/03/2024 14:26, 3/11/24 2:26 PM)")
        }
        let (year, month, day) = try date(pieces[0], text: text, order: order)
        let (hour, minute, second) = try time(pieces[1], meridiem: pieces.count == 3 ? pieces[2] : nil, text: text)
        guard day <= LocalTime.daysInMonth(year: year, month: month) else { throw bad(text, "is not a date") }
        return LocalTime.days(year: year, month: month, day: day) * Millis.day
            + Int64(hour) * Millis.hour + Int64(minute) * Millis.minute + Int64(second) * Millis.second
    }

    static func bad(_ text: String, _ what: String) -> ImportProblem {
        ImportProblem("bad time", "time '\(InputBounds.printable(text))' \(what)")
    }

    /// Up to `digits` ASCII digits as a number.
    static func number(_ s: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(s.utf8.count), s.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(s)
    }

    static func date(_ s: Substring, text: String, order: Order?) throws(ImportProblem) -> (Int, Int, Int) {
        let separator: Character? = s.contains("-") ? "-" : s.contains("/") ? "/" : s.contains(".") ? "." : nil
        guard let separator else { throw bad(text, "has no date such as 2024-03-11 or 11/03/2024") }
        let f = s.split(separator: separator, omittingEmptySubsequences: false)
        guard f.count == 3 || (f.count == 4 && f[3].isEmpty && separator == ".") else { throw bad(text, "is not a date") }
        let yearFirst = f[0].utf8.count == 4
        guard let a = number(f[0], digits: 1...4), let b = number(f[1], digits: 1...2), let c = number(f[2], digits: 1...4) else {
            throw bad(text, "is not a date of digits")
        }
        let year = yearFirst ? a : (f[2].utf8.count == 2 ? (c < 70 ? 2000 + c : 1900 + c) : c)
        guard (1970...2099).contains(year), yearFirst || f[2].utf8.count == 2 || f[2].utf8.count == 4 else {
            throw bad(text, "is not a date between 1970 and 2100")
        }
        if yearFirst {
            // A four-digit year first is read one way only, whatever `order` says: no locale writes
            // year, day, month, and Android 10 and later print ISO dates in every locale.
            guard (1...12).contains(b), (1...31).contains(c) else { throw bad(text, "is not a date") }
            return (year, b, c)
        }
        let resolved: Order
        if let order, order != .ymd { resolved = order }
        else if a > 12 { resolved = .dmy }
        else if b > 12 { resolved = .mdy }
        else if a == b { resolved = .dmy }
        else { throw bad(text, "could be day/month or month/day: give --date-order dmy or mdy (the phone's locale)") }
        let (day, month) = resolved == .dmy ? (a, b) : (b, a)
        guard (1...12).contains(month), (1...31).contains(day) else { throw bad(text, "is not a date in the order \(resolved.rawValue)") }
        return (year, month, day)
    }

    static func time(_ s: Substring, meridiem: Substring?, text: String) throws(ImportProblem) -> (Int, Int, Int) {
        let f = s.split(separator: ":", omittingEmptySubsequences: false)
        guard f.count == 2 || f.count == 3, let h = number(f[0], digits: 1...2), let m = number(f[1], digits: 2...2),
              let sec = f.count == 3 ? number(f[2], digits: 2...2) : 0, m < 60, sec < 60 else {
            throw bad(text, "has no time such as 21:18 or 21:18:05")
        }
        guard let meridiem else {
            guard h < 24 else { throw bad(text, "is not a time") }
            return (h, m, sec)
        }
        let mark = meridiem.lowercased().replacing(".", with: "")
        guard mark == "am" || mark == "pm", (1...12).contains(h) else { throw bad(text, "is not a 12-hour time (AM or PM)") }
        return ((h % 12) + (mark == "pm" ? 12 : 0), m, sec)
    }
}
