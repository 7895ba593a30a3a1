import FetchCore
import FetchTesting
import Testing

/// The five hard rules of docs/hard-rules.md hold over many random logs whatever a policy asks; the check
/// here rebuilds every fact from the log and the trace, independently of the engine's audit.
struct HardRuleTests {
    /// Every family's examples in the registry under test (the built-in one and the test target's
    /// own families), and the tests' own policies that ask for too much.
    static let policies: [String] = ["greedy", "random", "push-greedy"] + PolicyRegistry.underTest.examples

    func policy(_ name: String, log: RandomLog, seed: UInt64) -> any FetchPolicy {
        switch name {
        case "greedy": GreedyPolicy(extraApps: Array(0..<log.appCount))
        case "random": RandomPolicy(seed: seed, apps: log.appCount)
        case "push-greedy": PushGreedyPolicy()
        default: PolicyRegistry.underTest.make(name)!
        }
    }

    @Test(arguments: policies)
    func everyHardRuleHoldsOnRandomLogs(policyName: String) {
        for seed in UInt64(1)...25 { replayAndCheck(policyName, log: RandomLog(seed: seed, users: 3, days: 3), seed: seed) }
    }

    /// Notifications are wakes where a policy may ask for anything: the rules hold there too.
    @Test(arguments: ["greedy", "random", "adaptive", "counts", "oracle", "oracle:hindsight"])
    func everyHardRuleHoldsWithNotifications(policyName: String) {
        for seed in UInt64(1)...10 {
            replayAndCheck(policyName, log: RandomLog(seed: seed, users: 3, days: 3).withNotifications(seed: seed), seed: seed)
        }
    }

    /// Replays `log` under the policy and checks every rule, and every push, from the log and the trace.
    func replayAndCheck(_ policyName: String, log: RandomLog, seed: UInt64) {
        let scenario = RandomLog.scenario(seed: seed, apps: Int(log.appCount))
        let trace = RecordingTrace()
        let report = log.replay(policy(policyName, log: log, seed: seed), scenario: scenario, seed: seed, trace: trace)
        #expect(report.total.violations == .zero, "seed \(seed): engine audit found violations")
        let fetches = trace.rows.filter { $0.refusal == nil }
        #expect(fetches.count == report.total.fetches)
        check(fetches, log: log, scenario: scenario, seed: seed)
        checkPushes(trace.pushes, report: report, scenario: scenario, seed: seed)
    }

    /// No app gets more silent pushes on arrival than the hourly limit allows, and every silent
    /// push is accounted for: delivered at once, late, or reported undelivered.
    func checkPushes(_ pushes: [RecordingTrace.Push], report: ReplayResult, scenario: Scenario, seed: UInt64) {
        var recent: [String: [Int64]] = [:]
        for p in pushes where p.silent && p.fate == .delivered {
            let key = "\(p.user)/\(p.app)"
            var times = (recent[key] ?? []).filter { p.time - $0 < Millis.hour }
            times.append(p.time)
            #expect(times.count <= scenario.silentPushesPerHour, "seed \(seed): \(key) got \(times.count) silent pushes within an hour")
            recent[key] = times
        }
        let t = report.total.pushes
        #expect(t.silent == t.deliveredNow + t.held && t.held == t.deliveredLate + t.undelivered, "seed \(seed): pushes unaccounted for")
        let b = report.total.background
        #expect(b.transfers == b.transfersCompleted + b.transfersPending, "seed \(seed): transfers unaccounted for")
        #expect(b.locationFetches <= b.locationWakes)
        #expect(b.tasks == b.tasksCompleted + b.tasksExpired + b.tasksPending, "seed \(seed): tasks unaccounted for")
    }

    func check(_ fetches: [TraceRow], log: RandomLog, scenario: Scenario, seed: UInt64) {
        var lastStart: [String: Int64] = [:]
        var energy: [String: Int64] = [:], cellular: [String: Int64] = [:]
        var contexts = ContextReplay(log)
        for f in fetches {
            let app = log.apps[f.app], user = log.users[f.user]
            let settings = scenario.settings(forApp: app)
            // 1. never
            #expect(settings.interval != .never, "seed \(seed): \(app) is never but was fetched")
            // 2. custom interval
            let key = "\(user)/\(app)"
            if let last = lastStart[key], settings.interval.minimumGap > 0 {
                #expect(f.start - last >= settings.interval.minimumGap, "seed \(seed): \(key) fetched \(f.start - last) ms apart")
            }
            lastStart[key] = f.start
            // 3. deadline
            #expect(f.durationMs <= Millis.deadline)
            // 4. budgets per local day
            let day = "\(user)/\(LocalTime.day(f.start, offsetMinutes: Int(f.offsetMinutes)))"
            energy[day, default: 0] += f.energyMicroJ
            if f.network == .cellular { cellular[day, default: 0] += f.bytes }
            // 5. context, from the log itself
            let allowed = contexts.allows(user: f.user, at: f.start)
            #expect(allowed, "seed \(seed): \(key) fetched when the context forbids")
        }
        for (day, e) in energy { #expect(e <= scenario.energyBudgetMicroJ, "seed \(seed): \(day) spent \(e) µJ") }
        for (day, b) in cellular { #expect(b <= scenario.cellularBudgetBytes, "seed \(seed): \(day) used \(b) cellular bytes") }
    }

    /// Replays the log's device events per user, to tell whether a fetch at `t` was allowed,
    /// just before or just after the events at `t`. Fetches of one user come in time order.
    struct ContextReplay {
        var events: [Int32: [UsageEvent]] = [:]
        var position: [Int32: Int] = [:]
        var context: [Int32: DeviceContext] = [:]

        init(_ log: RandomLog) {
            for e in log.events { events[e.user, default: []].append(e) }
            for u in events.keys { events[u]!.sort { $0.time < $1.time } }
        }

        mutating func allows(user: Int32, at t: Int64) -> Bool {
            let list = events[user] ?? []
            var i = position[user] ?? 0
            var before = context[user] ?? DeviceContext()
            while i < list.count && list[i].time.millis < t { before.apply(list[i]); i += 1 }
            position[user] = i
            context[user] = before
            var after = before
            while i < list.count && list[i].time.millis == t { after.apply(list[i]); i += 1 }
            return before.blocker == nil || after.blocker == nil
        }
    }

    @Test func aGreedyPolicyIsRefusedByEveryRule() {
        var refused = SIMD8<Int64>()
        for seed in UInt64(1)...10 {
            let log = RandomLog(seed: seed)
            let scenario = RandomLog.scenario(seed: seed, apps: Int(log.appCount))
            refused &+= log.replay(GreedyPolicy(extraApps: Array(0..<log.appCount)), scenario: scenario, seed: seed).total.refused
        }
        for r in Refusal.allCases { #expect(refused[r.rawValue] > 0, "no request was refused for \(r)") }
    }
}
