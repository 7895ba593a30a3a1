#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses lines of the canonical usage-log CSV, `timestamp,user,app,event,value`.
///
/// Hand-written over bytes: it is the hot path of ingest and replay. Quoted fields (RFC 4180)
/// are accepted; the five fields are required on every row.
public struct CSVLineParser {
    public static let header = "timestamp,user,app,event,value"
    public var decoder: RowDecoder
    private var scratch: [[UInt8]] = Array(repeating: [], count: 5)

    public init(decoder: RowDecoder) { self.decoder = decoder }

    /// Checks the header line.
    public static func checkHeader(_ line: UnsafeBufferPointer<UInt8>) throws(RowProblem) {
        let text = String(decoding: trimCR(line), as: UTF8.self)
        let cleaned = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        guard cleaned == header else {
            throw RowProblem(.missingField, "expected the header '\(header)', got '\(InputBounds.printable(cleaned))'")
        }
    }

    /// The event of a data line, or nil for a blank line.
    public mutating func parse(_ raw: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> UsageEvent? {
        let line = Self.trimCR(raw)
        if line.isEmpty { return nil }
        let base = line.baseAddress!
        // memchr scans in vector-wide steps; a byte loop with a field counter was the largest
        // share of a parse in profiles. A field is quoted only if it starts with a quote (one
        // inside a field is a plain character, as in `parseQuoted`), so only field starts are looked at.
        let quote = UInt8(ascii: "\"")
        if base[0] == quote { return try parseQuoted(line) }
        var ends = (0, 0, 0, 0)
        var at = 0
        for n in 0..<4 {
            guard let comma = memchr(base + at, Int32(UInt8(ascii: ",")), line.count - at) else {
                throw RowProblem(.missingField, "expected 5 fields (timestamp,user,app,event,value), got \(n + 1)")
            }
            let i = base.distance(to: comma.assumingMemoryBound(to: UInt8.self))
            switch n {
            case 0: ends.0 = i
            case 1: ends.1 = i
            case 2: ends.2 = i
            default: ends.3 = i
            }
            at = i + 1
            if at < line.count && base[at] == quote { return try parseQuoted(line) }
        }
        if memchr(base + at, Int32(UInt8(ascii: ",")), line.count - at) != nil { throw RowProblem(.badValue, "expected 5 fields, got more") }
        func slice(_ a: Int, _ b: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: line[a..<b]) }
        return try decoder.decode(timestamp: slice(0, ends.0), user: slice(ends.0 + 1, ends.1),
                                  app: slice(ends.1 + 1, ends.2), event: slice(ends.2 + 1, ends.3),
                                  value: slice(ends.3 + 1, line.count))
    }

    private mutating func parseQuoted(_ line: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> UsageEvent? {
        for i in 0..<5 { scratch[i].removeAll(keepingCapacity: true) }
        var field = 0, i = 0, quoted = false
        while i < line.count {
            let c = line[i]
            if quoted {
                if c == UInt8(ascii: "\"") {
                    if i + 1 < line.count && line[i + 1] == UInt8(ascii: "\"") { scratch[field].append(c); i += 1 } else { quoted = false }
                } else {
                    scratch[field].append(c)
                }
            } else if c == UInt8(ascii: "\"") && scratch[field].isEmpty {
                quoted = true
            } else if c == UInt8(ascii: ",") {
                field += 1
                guard field < 5 else { throw RowProblem(.badValue, "expected 5 fields, got more") }
            } else {
                scratch[field].append(c)
            }
            i += 1
        }
        guard !quoted else { throw RowProblem(.badValue, "unterminated quoted field") }
        guard field == 4 else { throw RowProblem(.missingField, "expected 5 fields (timestamp,user,app,event,value), got \(field + 1)") }
        return try decoder.decode(fields: scratch)
    }

    @inline(__always)
    static func trimCR(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if let last = b.last, last == UInt8(ascii: "\r") { return UnsafeBufferPointer(rebasing: b.dropLast()) }
        return b
    }
}
