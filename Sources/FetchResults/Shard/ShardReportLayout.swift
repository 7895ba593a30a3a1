import FetchCore

/// Where each part's rows by user lie in a shard report's JSON text, found by a scan of its
/// structure rather than a decode: the rows are most of a report, and Foundation's decoder holds
/// many times a text's size while it decodes it, so a report is decoded without them and each
/// row alone (``ShardReport/decode(_:keepingRowsIn:)``).
///
/// The scan reads only what separates the values it skips: the top-level object, the members
/// of `results`, and the elements of each part's `perUser`. Whatever it skips is left to the
/// decoder, which reads the report without its rows and each row on its own: together, every
/// byte of the text. Nil for any text whose structure is not a report's as the writer makes it
/// (a key with an escape, a key given twice, a part that is not an object, a value cut short):
/// the caller then decodes the text whole, for the decoder's own account of it.
struct ShardReportLayout {
    struct Part {
        /// The bytes between the brackets of its `perUser` array (empty when it has none).
        var contents: Range<Int>
        /// Each row's bytes, in order.
        var rows: [Range<Int>]
    }

    /// The parts of `results`, in order.
    private(set) var parts: [Part] = []

    private let b: [UInt8]
    private var i = 0

    init?(_ bytes: [UInt8]) {
        b = bytes
        guard (try? scanReport()) != nil else { return nil }
    }

    /// A text that is not a report's as its writer makes it.
    private struct Unexpected: Error {}

    private mutating func scanReport() throws(Unexpected) {
        var sawResults = false
        try members { (scan: inout Self, key: ArraySlice<UInt8>) throws(Unexpected) in
            if key.elementsEqual("results".utf8) {
                guard !sawResults else { throw Unexpected() }
                sawResults = true
                try scan.scanResults()
            } else {
                try scan.skipValue()
            }
        }
        skipSpace()
        guard i == b.count else { throw Unexpected() }
    }

    private mutating func scanResults() throws(Unexpected) {
        try elements { (scan: inout Self) throws(Unexpected) in
            var part: Part? = nil
            try scan.members { (scan: inout Self, key: ArraySlice<UInt8>) throws(Unexpected) in
                guard key.elementsEqual("perUser".utf8) else { return try scan.skipValue() }
                guard part == nil else { throw Unexpected() }
                var rows: [Range<Int>] = []
                let open = scan.i + 1
                try scan.elements { (scan: inout Self) throws(Unexpected) in
                    let start = scan.i
                    try scan.skipValue()
                    rows.append(start..<scan.i)
                }
                part = Part(contents: open..<(scan.i - 1), rows: rows)
            }
            guard let part else { throw Unexpected() }
            scan.parts.append(part)
        }
    }

    /// An object's members: `member` is called at each value, with its key, and must pass it.
    private mutating func members(_ member: (inout Self, ArraySlice<UInt8>) throws(Unexpected) -> Void) throws(Unexpected) {
        skipSpace()
        try expect(UInt8(ascii: "{"))
        skipSpace()
        if peek == UInt8(ascii: "}") { i += 1; return }
        while true {
            skipSpace()
            let start = i
            try skipString()
            // A key with an escape could name what the scan looks for: left to the decoder.
            let key = b[(start + 1)..<(i - 1)]
            guard !key.contains(UInt8(ascii: "\\")) else { throw Unexpected() }
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            try member(&self, key)
            skipSpace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            try expect(UInt8(ascii: "}"))
            return
        }
    }

    /// An array's elements: `element` is called at each, and must pass it.
    private mutating func elements(_ element: (inout Self) throws(Unexpected) -> Void) throws(Unexpected) {
        try expect(UInt8(ascii: "["))
        skipSpace()
        if peek == UInt8(ascii: "]") { i += 1; return }
        while true {
            skipSpace()
            try element(&self)
            skipSpace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            try expect(UInt8(ascii: "]"))
            return
        }
    }

    /// Passes any one value: a string, an object or array to its closing bracket (brackets
    /// counted, strings passed whole), or a number or literal to the next delimiter. What is
    /// inside is the decoder's to check.
    private mutating func skipValue() throws(Unexpected) {
        guard let c = peek else { throw Unexpected() }
        switch c {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while let c = peek {
                switch c {
                case UInt8(ascii: "\""): try skipString(); continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { i += 1; return }
                default: break
                }
                i += 1
            }
            throw Unexpected()
        default:
            let start = i
            while let c = peek, !Self.delimiters.contains(c) { i += 1 }
            guard i > start else { throw Unexpected() }
        }
    }

    /// Passes a string from its opening quote to past its closing one.
    private mutating func skipString() throws(Unexpected) {
        try expect(UInt8(ascii: "\""))
        while let c = peek {
            i += c == UInt8(ascii: "\\") ? 2 : 1
            if c == UInt8(ascii: "\"") { return }
        }
        throw Unexpected()
    }

    private mutating func expect(_ c: UInt8) throws(Unexpected) {
        guard peek == c else { throw Unexpected() }
        i += 1
    }

    private mutating func skipSpace() {
        while let c = peek, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 }
    }

    private var peek: UInt8? { i < b.count ? b[i] : nil }

    private static let delimiters: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09]
}
