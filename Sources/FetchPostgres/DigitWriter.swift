import NIOCore

/// Bytes written into a buffer's spare room through a pointer: no capacity check per byte.
struct DigitWriter {
    /// The most characters ``decimal(_:)`` writes: a sign and 19 digits.
    static let widest = 20
    static let tab = UInt8(ascii: "\t")

    private let room: UnsafeMutableRawBufferPointer
    private(set) var count = 0

    /// Runs `body` on at least `room` bytes at the buffer's end, and keeps what it wrote.
    @inline(__always)
    static func write(to buffer: inout ByteBuffer, room: Int, _ body: (inout DigitWriter) -> Void) {
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: room) { raw in
            var writer = DigitWriter(room: raw)
            body(&writer)
            return writer.count
        }
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        room[count] = b
        count += 1
    }

    /// `value` in decimal digits, with a sign when negative.
    @inline(__always)
    mutating func decimal(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var width = 1
        var scale: UInt64 = 10
        while rest >= scale {  // an Int64's magnitude is below 10^19: at most 19 digits, and no overflow
            width += 1
            scale &*= 10
        }
        var at = count + width
        count = at
        repeat {
            at -= 1
            room[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
    }
}
