import FetchCore

/// Bounds checks for the values an imported row carries: one home for every reader.
enum ImportFields {
    /// A name (user, app, device) within the log's bounds.
    static func name(_ text: String, _ what: String) throws(ImportProblem) -> String {
        if text.isEmpty { throw ImportProblem("missing \(what)", "\(what) is empty") }
        if let problem = InputBounds.nameProblem(text) { throw ImportProblem("bad \(what)", "\(what) '\(InputBounds.printable(text))': \(problem)") }
        return text
    }

    /// Unix milliseconds: digits, with a fraction of up to six digits (AWARE writes `1547709614050.0`).
    /// Nothing else a number parser would take: no sign, space, exponent or hex.
    static func epochMillis(_ text: String, _ what: String) throws(ImportProblem) -> Int64 {
        guard isDecimal(text, fraction: true), text.utf8.count <= 24, let value = Double(text),
              value >= Double(InputBounds.timestamps.lowerBound), value < Double(InputBounds.timestamps.upperBound) else {
            throw ImportProblem("bad time", "\(what) '\(InputBounds.printable(text))' is not Unix milliseconds between 1970 and 2100")
        }
        return Int64(value.rounded())
    }

    /// A whole number in `range`: digits, with a minus sign when negative (not `-0`, `+5`, ` 5` or
    /// `1.5`). A point and zeros may follow (`3.0`): exports through pandas or R write whole
    /// columns so when any of their values was missing.
    static func int(_ text: String, _ what: String, in range: ClosedRange<Int>) throws(ImportProblem) -> Int {
        let whole = Self.droppingZeroFraction(text)
        let digits = whole.hasPrefix("-") ? whole.dropFirst() : Substring(whole)
        guard text.utf8.count <= 12, isDecimal(digits, fraction: false), !(whole.hasPrefix("-") && digits.allSatisfy { $0 == "0" }),
              let value = Int(whole), range.contains(value) else {
            throw ImportProblem("bad \(what)", "\(what) '\(InputBounds.printable(text))' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `text` without a fraction of zeros (`3.00` is `3`); any other text as it is.
    static func droppingZeroFraction(_ text: String) -> String {
        guard let point = text.utf8.firstIndex(of: UInt8(ascii: ".")) else { return text }
        let fraction = text.utf8[text.utf8.index(after: point)...]
        guard !fraction.isEmpty, fraction.allSatisfy({ $0 == UInt8(ascii: "0") }) else { return text }
        return String(text[..<point])
    }

    /// One or more ASCII digits, then (when `fraction`) optionally a point and one to `digits` digits.
    static func isDecimal(_ text: some StringProtocol, fraction: Bool, digits: Int = 6) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, parts.count == 1 || fraction else { return false }
        let isDigit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        guard whole.allSatisfy(isDigit) else { return false }
        guard parts.count == 2 else { return true }
        return (1...digits).contains(parts[1].count) && parts[1].allSatisfy(isDigit)
    }

}
