@testable import FetchCore
import Foundation
import Testing

struct TallyTests {
    /// Refusals and violations counted one by one, in place, land in their own lanes only.
    @Test(arguments: [1, 2] as [UInt64])
    func eachRefusalAndViolationIsCountedInItsOwnLane(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var tally = Tally()
        var refusals: [Refusal: Int64] = [:], violations: [HardRule: Int64] = [:]
        for _ in 0..<5_000 {
            if rng.chance(0.5) {
                let r = Refusal.allCases[rng.int(in: 0...(Refusal.allCases.count - 1))]
                tally.countRefusal(r)
                refusals[r, default: 0] += 1
            } else {
                let rule = HardRule.allCases[rng.int(in: 0...(HardRule.allCases.count - 1))]
                tally.countViolation(rule)
                violations[rule, default: 0] += 1
            }
        }
        for r in Refusal.allCases { #expect(tally.refusedCount(r) == refusals[r, default: 0], "\(r)") }
        for rule in HardRule.allCases { #expect(tally.violationCount(rule) == violations[rule, default: 0], "\(rule)") }
        #expect(tally.refused.wrappedSum() == refusals.values.reduce(0, +))
        #expect(tally.violations.wrappedSum() == violations.values.reduce(0, +))
    }

    /// A histogram is written with its buckets in order, so the same values recorded in any
    /// order (a shard report's users retired in another order) are the same bytes, and read back.
    @Test(arguments: [3, 4] as [UInt64])
    func aHistogramIsWrittenInBucketOrderWhateverTheOrderOfItsValues(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        // Across five decades of seconds, so that there are many buckets.
        let values = (0..<400).map { _ in Int64(rng.int(in: 0...999)) * [1, 10, 100, 1_000, 10_000][rng.int(in: 0...4)] }
        var forward = StalenessHistogram(), backward = StalenessHistogram()
        for v in values { forward.record(seconds: v) }
        for v in values.reversed() { backward.record(seconds: v) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let a = try encoder.encode(forward), b = try encoder.encode(backward)
        #expect(a == b)
        let pairs = try #require((try JSONSerialization.jsonObject(with: a) as? [String: Any])?["buckets"] as? [Int])
        let keys = stride(from: 0, to: pairs.count, by: 2).map { pairs[$0] }
        #expect(keys.count > 100 && keys == keys.sorted())
        #expect(try JSONDecoder().decode(StalenessHistogram.self, from: a) == forward)
    }
}
