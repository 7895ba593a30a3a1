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
}
