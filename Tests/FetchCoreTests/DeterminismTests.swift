import FetchBench
import FetchCore
import FetchTesting
import Testing

/// Same inputs and seed, byte-identical output; the seed matters.
struct DeterminismTests {
    func json(_ policy: String, seed: UInt64) throws -> String {
        let log = RandomLog(seed: 7, users: 4, days: 4)
        var scenario = RandomLog.scenario(seed: 7, apps: Int(log.appCount))
        scenario.energyBudgetMicroJ = 2_000_000_000
        return try ResultText.json(log.replay(PolicySpec.parse(policy)!, scenario: scenario, seed: seed))
    }

    @Test(arguments: ["none", "fixed:15m", "oracle", "oracle:hindsight", "oracle:hindsight-counts"])
    func sameInputsAndSeedGiveByteIdenticalJSON(policy: String) throws {
        #expect(try json(policy, seed: 3) == json(policy, seed: 3))
    }

    @Test func anotherSeedGivesOtherDraws() throws {
        #expect(try json("fixed:15m", seed: 3) != json("fixed:15m", seed: 4))
    }

    @Test func simultaneousEventsReplayTheSameInAnyInputOrder() throws {
        var a = LogBuilder(), b = LogBuilder()
        a.add(.screenOn, at: "07:00"); a.open("news", at: "07:00"); a.add(.network, value: 2, at: "07:00")
        b.add(.network, value: 2, at: "07:00"); b.open("news", at: "07:00"); b.add(.screenOn, at: "07:00")
        let policy = FixedPolicy(period: Millis.minute)
        a.open("news", at: "09:00")
        b.open("news", at: "09:00")
        #expect(try ResultText.json(a.replay(policy)) == ResultText.json(b.replay(policy)))
    }

    @Test func theGeneratorWritesTheSameBytesForTheSameSeed() {
        #expect(SyntheticLog.csv(users: 3, days: 2, seed: 9) == SyntheticLog.csv(users: 3, days: 2, seed: 9))
        #expect(SyntheticLog.csv(users: 3, days: 2, seed: 9) != SyntheticLog.csv(users: 3, days: 2, seed: 10))
    }
}
