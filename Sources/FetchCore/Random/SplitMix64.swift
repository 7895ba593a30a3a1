#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small seeded random generator (Steele, Lea and Flood's SplitMix64).
///
/// The engine gives every user, and every user's app, a stream of its own derived from the
/// run's seed and their names, so a replay does not depend on input order or thread count.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A stream derived from a seed and up to three stable keys.
    @inlinable
    public init(seed: UInt64, _ a: UInt64, _ b: UInt64 = 0, _ c: UInt64 = 0) {
        var s = Self.mix(seed ^ Self.mix(a &+ 0x9E37_79B9_7F4A_7C15))
        s = Self.mix(s ^ Self.mix(b &+ 0x9E37_79B9_7F4A_7C15))
        state = Self.mix(s ^ Self.mix(c &+ 0x9E37_79B9_7F4A_7C15))
    }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    @inlinable
    public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    @inlinable
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Standard normal (Box-Muller, one of the pair).
    public mutating func normal() -> Double {
        let u1 = 1 - unit(), u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// Exponential with the given mean.
    public mutating func exponential(mean: Double) -> Double { -log(1 - unit()) * mean }

    /// Uniform integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }
}

/// A hash of text that is the same in every process (Swift's `Hasher` is seeded per process):
/// 64-bit FNV-1a.
public enum StableHash {
    public static func of(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }
}
