#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Parses JSON Lines usage logs: one object a line with the CSV's fields
/// (`timestamp` a string or Unix seconds as a number, `value` a string, number or null).
public struct JSONLineParser {
    public var decoder: RowDecoder
    private let json = JSONDecoder()
    static let fields = ["timestamp", "user", "app", "event", "value"]

    public init(decoder: RowDecoder) { self.decoder = decoder }

    /// The event of a line, or nil for a blank line.
    public mutating func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> UsageEvent? {
        let trimmed = CSVLineParser.trimCR(line)
        if trimmed.allSatisfy({ $0 == 32 || $0 == 9 }) { return nil }
        guard JSONValue.nestsWithinBounds(trimmed) else {
            throw RowProblem(.badValue, "arrays or objects nested deeper than \(JSONValue.maxNesting) levels")
        }
        let value: JSONValue
        do { value = try json.decode(JSONValue.self, from: Data(trimmed)) } catch {
            throw RowProblem(.badValue, "not a JSON object")
        }
        guard case .object(let object) = value else { throw RowProblem(.badValue, "expected a JSON object, got \(value.typeName)") }
        if let unknown = object.keys.sorted().first(where: { !Self.fields.contains($0) }) {
            throw RowProblem(.badValue, "unknown field '\(InputBounds.printable(unknown))'")
        }
        var texts: [[UInt8]] = []
        for name in Self.fields {
            switch object[name] {
            case nil, .null: texts.append([])
            case .string(let s): texts.append(Array(s.utf8))
            case .number(let n) where name == "timestamp" || name == "value":
                guard n.isFinite else { throw RowProblem(.badValue, "field '\(name)' is not a finite number", field: name) }
                texts.append(Array(Self.numberText(n, fraction: name == "timestamp").utf8))
            case .some(let other):
                throw RowProblem(.badValue, "field '\(name)' must be a string, got \(other.typeName)", field: name)
            }
        }
        return try decoder.decode(fields: texts)
    }

    /// Unix seconds to text with milliseconds; other numbers as whole numbers when they are.
    static func numberText(_ n: Double, fraction: Bool) -> String {
        if !fraction || n == n.rounded() { return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n) }
        let ms = Int64((n * 1000).rounded())
        return LocalTime.unixText(ms)
    }
}
