/// A set of time-of-week bins (``UsageModel/bins`` of them), one bit each, held inline: no
/// allocation, and a copy of the model copies it in one move.
package struct BinSet: Sendable, Equatable {
    private var words = SIMD4<UInt64>()

    public init() {}

    /// Whether `bin` is in the set.
    @inline(__always)
    public func contains(_ bin: Int) -> Bool {
        words[bin >> 6] & (1 << UInt64(bin & 63)) != 0
    }

    mutating func insert(_ bin: Int) {
        precondition(bin >= 0 && bin < 4 * 64, "a bin out of range")
        words[bin >> 6] |= 1 << UInt64(bin & 63)
    }

    /// Whether no bin is in the set.
    public var isEmpty: Bool { words == .zero }
}
