import FetchCore

/// One JSON line built as bytes, for the `exec:` protocol's per-decision messages.
///
/// Hand-written: a profile of an `exec:` replay showed building these lines with `String`
/// interpolation at a third of its time; appending bytes to one reused buffer is a fraction.
struct JSONLine {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func int<T: BinaryInteger>(_ value: T) {
        var v = Int64(value)
        if v < 0 {
            bytes.append(UInt8(ascii: "-"))
            if v == .min { bytes.append(contentsOf: "9223372036854775808".utf8); return }
            v = -v
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat { d[n] = UInt8(v % 10) + 48; v /= 10; n += 1 } while v > 0
            for i in stride(from: n - 1, through: 0, by: -1) { bytes.append(d[i]) }
        }
    }

    /// A time in milliseconds, or null for `Int64.min` (never).
    mutating func time(_ t: Int64) {
        if t == .min { raw("null") } else { int(t) }
    }

    /// Text already in JSON form (a number, a quoted literal).
    mutating func json(_ json: String) { bytes.append(contentsOf: json.utf8) }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// A JSON string: quotes, backslashes and control characters escaped.
    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case ..<0x20:
                raw("\\u00")
                bytes.append(b < 0x10 ? UInt8(ascii: "0") : UInt8(ascii: "1"))
                let low = b & 0xF
                bytes.append(low < 10 ? low + 48 : low - 10 + UInt8(ascii: "a"))
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}
