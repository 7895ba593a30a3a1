import FetchCore
import FetchExec
import FetchTesting
import Testing

/// The `exec:` protocol's lines, as a process would read them.
struct ExecMessageTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyLineIsAJSONObjectWithTheViewAPolicyGets(seed: UInt64) throws {
        let log = RandomLog(seed: seed, users: 2, days: 2)
        let peer = EchoPeer()
        let report = log.replay(ExecPolicy(command: "echo", peer: peer), scenario: .default, seed: seed)
        #expect(peer.malformed.isEmpty && peer.failure == nil)
        let events = peer.lines.filter { $0["type"] as? String == "event" }
        let decisions = peer.lines.filter { $0["type"] as? String == "decide" }
        #expect(events.count == log.events.count)
        #expect(!decisions.isEmpty && report.total.fetches > 0)
        for d in decisions {
            let context = try #require(d["context"] as? [String: Any])
            #expect(Set(context.keys) == ["battery", "charging", "network", "lowPower", "screenOn"])
            let budgets = try #require(d["budgets"] as? [String: Any])
            #expect((budgets["energyLeftJoules"] as? Double).map { $0 >= 0 } == true)
            // The process's own fetches' spending: part of what the day spent, never more.
            let left = try #require(budgets["energyLeftJoules"] as? Double)
            let own = try #require(budgets["ownEnergyUsedJoules"] as? Double)
            let budget = Double(Scenario.default.energyBudgetMicroJ) / 1e6
            #expect(own >= 0 && own <= budget - left + 1e-6)
            #expect((budgets["ownCellularUsedBytes"] as? Int).map { $0 >= 0 } == true)
            #expect(["tick", "timer", "wake", "open"].contains(d["point"] as? String))
            for app in try #require(d["apps"] as? [[String: Any]]) {
                #expect(log.apps.existingID(app["app"] as! String) != nil)
            }
        }
    }

    /// A process asking for every app at every decision point, and to be woken every minute,
    /// breaks no rule: the same independent check as every built-in policy's (HardRuleTests).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func anExecPolicyAskingForEverythingBreaksNoRule(seed: UInt64) {
        let log = RandomLog(seed: seed, users: 3, days: 3)
        let scenario = RandomLog.scenario(seed: seed, apps: Int(log.appCount))
        let trace = RecordingTrace()
        let report = log.replay(ExecPolicy(command: "greedy", peer: EchoPeer()), scenario: scenario, seed: seed, trace: trace)
        #expect(report.total.violations == .zero)
        #expect(report.total.refused.wrappedSum() > 0, "a greedy process should meet refusals")
        let fetches = trace.rows.filter { $0.refusal == nil }
        #expect(fetches.count == report.total.fetches)
        HardRuleTests().check(fetches, log: log, scenario: scenario, seed: seed)
    }

    @Test func namesWithQuotesAndBackslashesReadBack() throws {
        let users = NameTable(), apps = NameTable()
        let user = users.id(#"ann "the" \tester"#), app = apps.id(#"com.example."news""#)
        let peer = EchoPeer()
        let replay = makeReplay(policy: ExecPolicy(command: "echo", peer: peer), scenario: .default, seed: 1, users: users, apps: apps)
        replay.consume(UsageEvent(time: Instant(millis: 1_736_150_400_000), user: user, app: app, kind: .open))
        replay.consume(UsageEvent(time: Instant(millis: 1_736_154_000_000), user: user, app: app, kind: .open))
        _ = replay.finish()
        #expect(peer.malformed.isEmpty)
        #expect(peer.lines.first?["user"] as? String == #"ann "the" \tester"#)
        #expect(peer.lines.first?["app"] as? String == #"com.example."news""#)
    }
}
