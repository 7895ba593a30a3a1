import FetchBench
import FetchCore
import FetchTesting
import Testing

/// A predictor a policy author might write first: an app is as likely as its share of the
/// user's opens so far. Declared here alone, with its family's one line in the registry under
/// test, it is swept by the frontier and replayed by the hard-rule tests.
struct ShareOfOpensPredictor: OpenPredictor {
    struct State: Sendable {
        var opens: [Int32: Double] = [:]
        var total = 0.0
    }

    static var name: String { "toy-share" }
    func makeState() -> State { State() }

    func observe(_ event: UsageEvent, state: inout State) {
        guard event.kind == .open else { return }
        state.opens[event.app, default: 0] += 1
        state.total += 1
    }

    func score(_ app: Int32, at moment: PredictionMoment, horizon: Int64, state: inout State) -> Double {
        state.total > 0 ? (state.opens[app] ?? 0) / state.total : 0
    }
}

extension PolicyRegistry {
    /// The built-in families and the test target's own: what the hard-rule tests replay.
    static let underTest = PolicyRegistry.builtIn.adding(ValueRuleFamilies.family(over: ShareOfOpensPredictor(),
                                                                                  examples: ["ev-toy-share", "ev-toy-share@0.1"]))
}

struct ToyFamilyTests {
    @Test func aFamilyAddedToARegistryIsSweptAndGetsItsCurveBesideTheBuiltInOnes() throws {
        let registry = PolicyRegistry.underTest
        let swept = try Frontier.sweptPolicies(for: .default, families: "ev-toy-share,counts", registry: registry)
        let toy = swept.filter { $0.hasPrefix("ev-toy-share@") }
        #expect(toy.count == ValueRuleFamilies.shares.count && swept.count == toy.count + 9)
        #expect(throws: Frontier.SweepError.self) { try Frontier.sweptPolicies(for: .default, families: "ev-toy-share") }
        let log = RandomLog(seed: 3, users: 3, days: 5)
        let scenario = RandomLog.scenario(seed: 3, apps: Int(log.appCount))
        let reports = ["ev-toy-share@0.05", "ev-toy-share@0.5", "ev-toy-share", "counts:0.3", "counts:0.05", "oracle"].map { name in
            log.replay(registry.make(name)!, scenario: scenario, seed: 3)
        }
        let curves = Frontier.families(reports, registry: registry)
        let curve = try #require(curves.first { $0.family == "ev-toy-share" })
        #expect(curve.points.count == 3 && curves.map(\.family) == ["counts", "ev-toy-share"])
        // The counting baseline's points are read on the toy's curve at their energy, as on every family's.
        #expect(curve.atEnergyOf.map(\.policy).sorted() == ["counts:0.05", "counts:0.3", "oracle"])
        #expect(Frontier.families(reports).map(\.family) == ["counts"])
    }

    @Test func predictScoresTheToyPredictorBesideItsOwnModelsOnTheSameExamples() throws {
        let source = try ArraySource(csv: SyntheticLog.csv(users: 3, days: 6, seed: 9))
        var byUser: [Int32: [UsageEvent]] = [:]
        for e in source.events { byUser[e.user, default: []].append(e) }
        func run(_ registry: PolicyRegistry) -> PredictionBench {
            var bench = PredictionBench(window: 30 * Millis.minute, tick: 15 * Millis.minute, leaveOneOut: true, registry: registry)
            for user in byUser.keys.sorted() {
                bench.run(user: user, events: byUser[user]!.sorted { a, b in a.time != b.time ? a.time < b.time : a.canonicallyPrecedes(b) })
            }
            return bench
        }
        let toy = run(.underTest), builtIn = run(.builtIn)
        let names = PolicyRegistry.builtIn.scoredModels.map(\.name)
        #expect(toy.primary == names + ["toy-share"] && builtIn.primary == names)
        #expect(toy.models.count == builtIn.models.count + 1 && toy.models.last?.hasPrefix("learned without ") == true)
        let overall = toy.overall
        // Every model, the toy too, scored on the same examples; the others' scores as without it.
        #expect(Set(overall.map(\.examples)).count == 1)
        #expect(overall[4].examples > 10_000 && overall[4].averagePrecision > overall[4].baseRate)
        let without = builtIn.overall
        #expect(overall.prefix(4).map(\.averagePrecision) == without.prefix(4).map(\.averagePrecision))
        #expect(toy.text(markdown: true, users: source.users).contains("toy-share"))
        #expect(try toy.json(users: source.users).contains("toy-share"))
    }

    @Test func predictListsTheBuiltInScoredModelsInTheirOrderOfOld() {
        #expect(PolicyRegistry.builtIn.scoredModels.map(\.name) == ["habits", "counts", "learned", "appm"])
    }

    @Test func aFamilysScoredModelIsScoredByPredictAtItsRankFromTheSharedReading() {
        // The learned model's chance halved: scored on the same examples, listed after `counts`
        // (its rank ties with it, and it comes later in the registry).
        let halved = ScoredModel(name: "toy-half-learned", rank: 1) { _, _, r in r.learned / 2 }
        let registry = PolicyRegistry.builtIn.adding(PolicyFamily(name: "toy-half", entries: [], examples: [], scored: halved))
        let source = try! ArraySource(csv: SyntheticLog.csv(users: 2, days: 5, seed: 4))
        func run(_ registry: PolicyRegistry) -> PredictionBench {
            var bench = PredictionBench(window: 30 * Millis.minute, tick: 15 * Millis.minute, leaveOneOut: false, registry: registry)
            for user in Set(source.events.map(\.user)).sorted() {
                bench.run(user: user, events: source.events.filter { $0.user == user }
                    .sorted { a, b in a.time != b.time ? a.time < b.time : a.canonicallyPrecedes(b) })
            }
            return bench
        }
        let toy = run(registry), builtIn = run(.builtIn)
        #expect(toy.primary == ["habits", "counts", "toy-half-learned", "learned", "appm"])
        let (a, b) = (toy.overall, builtIn.overall)
        #expect(a[2].examples == a[3].examples && a[2].examples > 1000)
        // Halving every chance keeps the ranking, so the average precision (within the binning's
        // ties), and not the Brier score.
        #expect(abs(a[2].averagePrecision - a[3].averagePrecision) < 0.01 && a[2].brier != a[3].brier, "\(a[2]) \(a[3])")
        #expect([a[0], a[1], a[3], a[4]].map(\.averagePrecision) == b.map(\.averagePrecision))
    }

    @Test func theHardRuleTestsReplayEveryFamilysExamplesTheToysIncluded() {
        for family in PolicyRegistry.underTest.families {
            #expect(family.examples.allSatisfy(HardRuleTests.policies.contains), "\(family.name)")
            #expect(family.examples.allSatisfy { PolicyRegistry.underTest.make($0) != nil }, "\(family.name)")
        }
        #expect(HardRuleTests.policies.contains("ev-toy-share@0.1"))
    }
}
