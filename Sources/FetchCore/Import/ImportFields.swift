/// Bounds checks for the values an imported row carries: one home for every reader.
enum ImportFields {
    /// A name (user, app, device) within the log's bounds.
    static func name(_ text: String, _ what: String) throws(ImportProblem) -> String {
        if text.isEmpty { throw ImportProblem("missing \(what)", "\(what) is empty") }
        if let problem = InputBounds.nameProblem(text) { throw ImportProblem("bad \(what)", "\(what) '\(InputBounds.printable(text))': \(problem)") }
        return text
    }

    /// Unix milliseconds, written as a whole number or with a fraction (AWARE writes `1547709614050.0`).
    static func epochMillis(_ text: String, _ what: String) throws(ImportProblem) -> Int64 {
        guard text.utf8.count <= 24, let value = Double(text), value.isFinite,
              value >= Double(InputBounds.timestamps.lowerBound), value < Double(InputBounds.timestamps.upperBound) else {
            throw ImportProblem("bad time", "\(what) '\(InputBounds.printable(text))' is not Unix milliseconds between 1970 and 2100")
        }
        return Int64(value.rounded())
    }

    /// A whole number in `range`.
    static func int(_ text: String, _ what: String, in range: ClosedRange<Int>) throws(ImportProblem) -> Int {
        guard text.utf8.count <= 12, let value = Int(text.hasSuffix(".0") ? String(text.dropLast(2)) : text), range.contains(value) else {
            throw ImportProblem("bad \(what)", "\(what) '\(InputBounds.printable(text))' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `YYYY-MM-DD HH:MM:SS` (Android's dump), as milliseconds of a wall clock read as if UTC.
    static func wallClock(_ text: String) throws(ImportProblem) -> Int64 {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0) }
        guard text.utf8.count == 19, parts.count == 6, parts.allSatisfy({ $0 != nil }) else {
            throw ImportProblem("bad time", "time '\(InputBounds.printable(text))' is not YYYY-MM-DD HH:MM:SS")
        }
        let p = parts.map { $0! }
        guard (1970...2099).contains(p[0]), (1...12).contains(p[1]), p[2] >= 1, p[2] <= LocalTime.daysInMonth(year: p[0], month: p[1]),
              p[3] < 24, p[4] < 60, p[5] < 60 else {
            throw ImportProblem("bad time", "time '\(InputBounds.printable(text))' is not a date and time between 1970 and 2100")
        }
        return LocalTime.days(year: p[0], month: p[1], day: p[2]) * Millis.day
            + Int64(p[3]) * Millis.hour + Int64(p[4]) * Millis.minute + Int64(p[5]) * Millis.second
    }
}
