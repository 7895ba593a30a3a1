@testable import FetchCore
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
}
