/// Staleness of stale opens, in seconds, kept as a sparse histogram with two significant
/// digits, so that medians and p90s merge exactly across users and days.
///
/// Hand-written rather than HdrHistogram: that one keeps a fixed bucket array per
/// histogram, and a replay keeps one per user and per day; this one costs per distinct bucket.
public struct StalenessHistogram: Equatable, Sendable, Codable {
    public private(set) var buckets: [Int32: Int64] = [:]
    public private(set) var count: Int64 = 0

    public init() {}

    /// Reads a histogram written by `encode(to:)` (a shard report): every bucket must be one
    /// `bucket(_:)` can give, and the count the sum of the buckets.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        buckets = try Self.decodePairs(c.nestedUnkeyedContainer(forKey: .buckets))
        count = try c.decode(Int64.self, forKey: .count)
        var sum: Int64 = 0
        for (b, n) in buckets {
            let (total, overflow) = sum.addingReportingOverflow(n)
            guard (0...Self.bucket(.max)).contains(b), n > 0, !overflow else {
                throw DecodingError.dataCorruptedError(forKey: .buckets, in: c, debugDescription: "bucket \(b) with \(n) values is not one a histogram holds")
            }
            sum = total
        }
        guard sum == count else {
            throw DecodingError.dataCorruptedError(forKey: .count, in: c, debugDescription: "count \(count) is not the sum of the buckets (\(sum))")
        }
    }

    /// Writes the buckets in order, as the pairs `[bucket, count, …]` a dictionary with integer
    /// keys is coded as, and the count: a dictionary's own order follows its insertions and the
    /// process's hash seed, and a shard report must be the same bytes on every run.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var pairs = c.nestedUnkeyedContainer(forKey: .buckets)
        for b in buckets.keys.sorted() {
            try pairs.encode(b)
            try pairs.encode(buckets[b]!)
        }
        try c.encode(count, forKey: .count)
    }

    private enum CodingKeys: String, CodingKey {
        case buckets, count
    }

    /// The pairs `[bucket, count, …]` as a dictionary, taken and refused as `[Int32: Int64]`'s own
    /// decoding does, in its words: by hand, because that generic decoding (a type lookup for each
    /// key and value) was a third of a merge's time (Benchmarks/HISTORY.md, "Session 20").
    static func decodePairs(_ pairs: any UnkeyedDecodingContainer) throws -> [Int32: Int64] {
        var pairs = pairs
        var out: [Int32: Int64] = [:]
        if let n = pairs.count {
            guard n % 2 == 0 else {
                let words = "Expected collection of key-value pairs; encountered odd-length array instead."
                throw DecodingError.dataCorrupted(.init(codingPath: pairs.codingPath, debugDescription: words))
            }
            out.reserveCapacity(n / 2)
        }
        while !pairs.isAtEnd {
            let key = try pairs.decode(Int32.self)
            guard !pairs.isAtEnd else {
                throw DecodingError.dataCorrupted(.init(codingPath: pairs.codingPath,
                                                        debugDescription: "Unkeyed container reached end before value in key-value pair."))
            }
            out[key] = try pairs.decode(Int64.self)
        }
        return out
    }

    public mutating func record(seconds: Int64) {
        buckets[Self.bucket(seconds), default: 0] += 1
        count += 1
    }

    public mutating func merge(_ other: StalenessHistogram) {
        for (b, c) in other.buckets { buckets[b, default: 0] += c }
        count += other.count
    }

    /// The value (seconds, the bucket's middle) at quantile `q` in 0...1; nil when empty.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int64((q * Double(count)).rounded(.up)))
        var seen: Int64 = 0
        for b in buckets.keys.sorted() {
            seen += buckets[b]!
            if seen >= rank { return Self.middle(b) }
        }
        return nil
    }

    static func bucket(_ s: Int64) -> Int32 {
        if s < 100 { return Int32(max(0, s)) }
        var scale: Int64 = 10, k: Int32 = 0
        while s / scale >= 100 { scale *= 10; k += 1 }
        return 100 + k * 90 + Int32(s / scale - 10)
    }

    static func middle(_ b: Int32) -> Double {
        if b < 100 { return Double(b) }
        let k = (b - 100) / 90, m = (b - 100) % 90 + 10
        var scale = 10.0
        for _ in 0..<k { scale *= 10 }
        return (Double(m) + 0.5) * scale
    }
}
