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

    /// A whole number in `range`: digits, with a minus sign when negative (not `-0`, `+5`, ` 5` or `1.0`).
    static func int(_ text: String, _ what: String, in range: ClosedRange<Int>) throws(ImportProblem) -> Int {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard text.utf8.count <= 12, isDecimal(digits, fraction: false), !(text.hasPrefix("-") && digits.allSatisfy { $0 == "0" }),
              let value = Int(text), range.contains(value) else {
            throw ImportProblem("bad \(what)", "\(what) '\(InputBounds.printable(text))' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// One or more ASCII digits, then (when `fraction`) optionally a point and one to six digits.
    static func isDecimal(_ text: some StringProtocol, fraction: Bool) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, parts.count == 1 || fraction else { return false }
        let isDigit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        guard whole.allSatisfy(isDigit) else { return false }
        guard parts.count == 2 else { return true }
        return (1...6).contains(parts[1].count) && parts[1].allSatisfy(isDigit)
    }

}
