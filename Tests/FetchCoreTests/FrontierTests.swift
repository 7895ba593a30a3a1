import FetchBench
import FetchCore
import Testing

/// Reading a frontier: the upper envelope through the origin, linear between its points.
struct FrontierTests {
    func point(_ name: String, _ energy: Double, _ rescued: Int) -> Frontier.Point {
        Frontier.Point(policy: name, energyJoules: energy, rescuedOpens: rescued, freshRate: 0)
    }

    @Test func aFrontierIsReadBetweenItsPointsAndStaysAtItsBestPastThem() {
        let f = Frontier(family: "adaptive", points: [point("c", 300, 50), point("a", 100, 40), point("b", 200, 30)],
                         oracle: point("oracle", 150, 100))
        #expect(f.points.map(\.policy) == ["a", "b", "c"])
        #expect(f.rescued(atEnergy: 0) == 0)
        #expect(f.rescued(atEnergy: 50) == 20)  // from the origin to a
        #expect(f.rescued(atEnergy: 200) == 45)  // b lies under the envelope, from a to c
        #expect(f.rescued(atEnergy: 1000) == 50)
        #expect(f.rescuedAtOracleEnergy == 42.5)
        #expect(f.best.policy == "c")
        #expect(f.ratios!.atOracleEnergy == 0.425 && f.ratios!.best == 0.5 && f.ratios!.bestEnergy == 2)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func everySweptNameParsesWhateverTheScenariosCostsAndThePricesOnlyFall(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<40 {
            var s = Scenario.default
            // From a nearly free fetch to a very dear one.
            s.energy.processingWatts = [0.000_001, 0.01, 1, 50][rng.int(in: 0...3)] * Double(rng.int(in: 1...9))
            s.defaultApp.profile.durationMedian = Int64(rng.int(in: 1...30_000))
            s.defaultApp.profile.bytes = Int64(rng.int(in: 0...50_000_000))
            for sweep in Frontier.sweeps(for: s) {
                #expect(Set(sweep.policies).count == sweep.policies.count, "\(sweep.policies)")
                for name in sweep.policies { #expect(PolicySpec.parse(name) != nil, "\(name)") }
            }
            let v1 = Frontier.sweeps(for: s).first { $0.family == "adaptive-v1" }?.policies ?? []
            let prices = v1.filter { $0.hasPrefix("adaptive-v1:") }.compactMap { Double($0.dropFirst(12)) }
            #expect(prices.count == 10 && zip(prices, prices.dropFirst()).allSatisfy { $0 > $1 }, "\(prices)")
        }
        let sweeps = Frontier.sweeps(for: .default)
        #expect(sweeps.first { $0.family == "adaptive-v1" }?.policies.prefix(3) == ["adaptive-v1:0.23", "adaptive-v1:0.12", "adaptive-v1:0.058"])
        // The value rule's families, `adaptive` first, sweep the shares.
        #expect(sweeps[0].family == "adaptive" && sweeps[0].policies == ValueRuleFamilies.shares.map { "adaptive@\($0)" })
    }

    /// Without `--sweep` a frontier sweeps the families a user compares and the hindsight
    /// reference; the research families come when named, or with `all`, in the registry's order.
    @Test func theDefaultFrontierSweepsTheComparedFamiliesAndAllSweepsEveryOne() throws {
        #expect(PolicyRegistry.builtIn.sweptByDefaultNames
            == ["adaptive", "counts", "fixed", "appm", "ebc", "android-prefetch", "oracle:hindsight"])
        let sweeps = Frontier.sweeps(for: .default)
        let compared = try Frontier.sweptPolicies(for: .default, families: nil)
        #expect(compared == sweeps.filter { PolicyRegistry.builtIn.sweptByDefaultNames.contains($0.family) }.flatMap(\.policies))
        #expect(!compared.contains { $0.hasPrefix("ev-") || $0.hasPrefix("adaptive-v1") })
        #expect(try Frontier.sweptPolicies(for: .default, families: "all") == sweeps.flatMap(\.policies))
        #expect(try Frontier.sweptPolicies(for: .default, families: "ev-mix,adaptive") == sweeps.filter { ["adaptive", "ev-mix"].contains($0.family) }
            .flatMap(\.policies))
        #expect(throws: Frontier.SweepError.self) { try Frontier.sweptPolicies(for: .default, families: "all,counts") }
    }
}
