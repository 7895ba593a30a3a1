#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Results as text: JSON with sorted keys, and numbers in fixed point with no locale
/// (FetchResults adds the tables and CSV).
public enum ResultText {
    /// Sorted keys and fixed rounding: same reports, same bytes.
    public static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try makeJSONEncoder().encode(value), as: UTF8.self)
    }

    /// The encoder of ``json(_:)``: pretty-printed, with sorted keys.
    package static func makeJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Rows under their column names, aligned as text (the `leftColumns` to the left) or as Markdown.
    package static func grid(_ columns: [String], _ rows: [[String]], markdown: Bool, leftColumns: Set<Int>) -> String {
        if markdown {
            var lines = ["| " + columns.joined(separator: " | ") + " |",
                         "|" + columns.indices.map { leftColumns.contains($0) ? "---" : "---:" }.joined(separator: "|") + "|"]
            lines += rows.map { "| " + $0.joined(separator: " | ") + " |" }
            return lines.joined(separator: "\n") + "\n"
        }
        let all = [columns] + rows
        let widths = columns.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { i in
                leftColumns.contains(i) ? row[i] + String(repeating: " ", count: widths[i] - row[i].count)
                                 : String(repeating: " ", count: widths[i] - row[i].count) + row[i]
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    package static func pad(_ v: Int, _ w: Int) -> String { padText(String(v), w) }
    public static func padText(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }

    /// Fixed-point text without Foundation's locale-dependent formatting.
    public static func fixed(_ x: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(x) * scale).rounded()
        // Beyond what an Int64 holds (a price where the day's budget is spent, say), or not a
        // number: Swift's own shortest form, which no locale changes either.
        guard scaled < 9e18 else { return x.isNaN ? "nan" : x.isInfinite ? (x < 0 ? "-inf" : "inf") : "\(x)" }
        let n = Int64(scaled)
        let whole = n / Int64(scale), frac = n % Int64(scale)
        let sign = x < 0 && n != 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(whole)" }
        let f = String(frac)
        return "\(sign)\(whole).\(String(repeating: "0", count: digits - f.count))\(f)"
    }
}

/// Micro-joules as joules to the millijoule, as every JSON form gives energy.
package func joules(_ microJ: Int64) -> Double { round(Double(microJ) / 1_000_000, 3) }

/// `x` rounded to `digits` decimals, as every JSON form gives a ratio.
package func round(_ x: Double, _ digits: Int) -> Double {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return (x * scale).rounded() / scale
}
