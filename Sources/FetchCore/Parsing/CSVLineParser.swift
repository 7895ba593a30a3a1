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
        // A field is quoted only if it starts with a quote (one inside a field is a plain
        // character, as in `parseQuoted`), so only field starts are looked at.
        let quote = UInt8(ascii: "\"")
        if base[0] == quote { return try parseQuoted(line) }
        let (ends, commas) = Self.commas(line)
        @inline(__always) func quoted(after k: Int, _ end: Int) -> Bool { commas > k && end + 1 < line.count && base[end + 1] == quote }
        if quoted(after: 0, ends.0) || quoted(after: 1, ends.1) || quoted(after: 2, ends.2) || quoted(after: 3, ends.3) {
            return try parseQuoted(line)
        }
        if commas < 4 { throw RowProblem(.missingField, "expected 5 fields (timestamp,user,app,event,value), got \(commas + 1)") }
        if commas > 4 { throw RowProblem(.badValue, "expected 5 fields, got more") }
        func slice(_ a: Int, _ b: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: line[a..<b]) }
        return try decoder.decode(timestamp: slice(0, ends.0), user: slice(ends.0 + 1, ends.1),
                                  app: slice(ends.1 + 1, ends.2), event: slice(ends.2 + 1, ends.3),
                                  value: slice(ends.3 + 1, line.count))
    }

    /// Where the first four commas of `line` are, and how many there are (counted up to five).
    ///
    /// Eight bytes at a time, each word's commas found at once: a row is short, and a `memchr`
    /// call per field (or a loop per byte) was a large share of a parse in profiles. The test
    /// for a comma byte is exact per byte (no borrow runs from one byte into the next).
    @inline(__always)
    static func commas(_ line: UnsafeBufferPointer<UInt8>) -> ((Int, Int, Int, Int), Int) {
        var ends = (0, 0, 0, 0)
        var n = 0
        @inline(__always) func found(at i: Int) {
            switch n {
            case 0: ends.0 = i
            case 1: ends.1 = i
            case 2: ends.2 = i
            case 3: ends.3 = i
            default: break
            }
            n += 1
        }
        let raw = UnsafeRawPointer(line.baseAddress!)
        @inline(__always) func commaBits(at i: Int) -> UInt64 {  // the high bit of each comma byte
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x2C2C_2C2C_2C2C_2C2C
            return ~(((x & low7) &+ low7) | x | low7)
        }
        @inline(__always) func take(_ bits: UInt64, from at: Int) -> Bool {  // true once five are found
            var bits = bits
            while bits != 0 {
                found(at: at + bits.trailingZeroBitCount >> 3)
                if n == 5 { return true }
                bits &= bits &- 1
            }
            return false
        }
        var i = 0
        while i + 8 <= line.count {
            if take(commaBits(at: i), from: i) { return (ends, n) }
            i += 8
        }
        if i < line.count && line.count >= 8 {
            // The last word ends at the line's end, its bytes already seen masked off.
            let at = line.count - 8
            _ = take(commaBits(at: at) & (~0 << UInt64((i - at) * 8)), from: at)
            return (ends, n)
        }
        while i < line.count {
            if line[i] == UInt8(ascii: ",") {
                found(at: i)
                if n == 5 { return (ends, n) }
            }
            i += 1
        }
        return (ends, n)
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
