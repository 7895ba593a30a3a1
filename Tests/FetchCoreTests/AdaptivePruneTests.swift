import Foundation
import Testing

@testable import FetchCore

/// The adaptive policy's cheap test of whether a chance can clear its bar never turns away an
/// app the full reckoning would fetch: it may only pass what then falls short.
struct AdaptivePruneTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func aChanceTurnedAwayFallsShortOfTheBarByThePower(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var turnedAway = 0
        for _ in 0..<20_000 {
            // Chances over many orders of magnitude, and bars near the chance's power or anywhere.
            let chance = pow(10, -8 * rng.unit())
            let power = pow(chance, 0.7)
            let least = rng.chance(0.5) ? power * (1 + (rng.unit() - 0.5) * 1e-5) : pow(10, -6 * rng.unit())
            if !AdaptivePolicy.mayReach(chance, least) {
                turnedAway += 1
                #expect(power < least, "chance \(chance), least \(least)")
            }
        }
        #expect(turnedAway > 1_000)
        #expect(AdaptivePolicy.mayReach(0.5, pow(0.5, 0.7)))
        #expect(!AdaptivePolicy.mayReach(0, 1e-3))
    }
}
