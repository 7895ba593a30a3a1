/// Little-endian bytes for storing models: fixed-size numbers and length-prefixed UTF-8.
///
/// Hand-written because a model is mostly 192-float arrays: as raw bits they round-trip
/// exactly and take 4 bytes each; JSON would take several times the space.
struct ModelWriter {
    var bytes: [UInt8] = []

    mutating func int(_ v: Int64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func float(_ v: Float) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func floats(_ v: [Float]) {
        int(Int64(v.count))
        for f in v { float(f) }
    }
    mutating func string(_ s: String) {
        int(Int64(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }
}

/// Reads what ``ModelWriter`` wrote; any inconsistency is a ``ModelBytes/Corrupt`` error.
struct ModelReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next little-endian unsigned integer of `T`'s width.
    private mutating func word<T: UnsignedInteger & FixedWidthInteger>(_: T.Type) throws(ModelBytes.Corrupt) -> T {
        let width = T.bitWidth / 8
        guard position + width <= bytes.count else { throw ModelBytes.Corrupt() }
        var v: T = 0
        for i in 0..<width { v |= T(bytes[position + i]) << (8 * i) }
        position += width
        return v
    }

    mutating func int() throws(ModelBytes.Corrupt) -> Int64 { Int64(bitPattern: try word(UInt64.self)) }
    mutating func float() throws(ModelBytes.Corrupt) -> Float { Float(bitPattern: try word(UInt32.self)) }

    mutating func floats(count expected: Int) throws(ModelBytes.Corrupt) -> [Float] {
        guard try int() == Int64(expected) else { throw ModelBytes.Corrupt() }
        var out: [Float] = []
        out.reserveCapacity(expected)
        for _ in 0..<expected { out.append(try float()) }
        return out
    }

    mutating func string() throws(ModelBytes.Corrupt) -> String {
        let n = Int(try int())
        guard n >= 0, position + n <= bytes.count else { throw ModelBytes.Corrupt() }
        defer { position += n }
        return String(decoding: bytes[position..<(position + n)], as: UTF8.self)
    }
}

package enum ModelBytes {
    /// Stored model bytes that cannot be read back.
    package struct Corrupt: Error {}
    /// The format's version, first in every record.
    static let version: Int64 = 5
}
