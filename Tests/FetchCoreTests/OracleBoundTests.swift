import FetchCore
import FetchTesting
import Testing

/// The oracle is an upper bound: on random logs and scenarios, no policy rescues more opens,
/// for any user, than `oracle` does.
struct OracleBoundTests {
    static let policies = ["none", "fixed:1m", "fixed:15m", "fixed:2h", "ios", "android", "adaptive", "adaptive:0.04",
                           "adaptive:0.01", "adaptive:0.001", "adaptive+push", "oracle:opens"]

    /// The oracle plans the fetches; paths the engine runs on its own (silent pushes in the log,
    /// location wakes) and background transfers are outside its plan (see ``OraclePolicy``).
    static func case_(_ seed: UInt64) -> (RandomLog, Scenario) {
        let log = RandomLog(seed: seed, users: 3, days: 3, eventsPerDay: 160)
            .removing { $0.kind == .push && $0.value == PushKind.silent.rawValue }
        var scenario = RandomLog.scenario(seed: seed, apps: 6)
        for (name, var settings) in scenario.apps {
            settings.profile.transferBytes = 0
            settings.monitorsLocation = false
            scenario.apps[name] = settings
        }
        return (log, scenario)
    }

    @Test(arguments: 0..<24)
    func noPolicyRescuesMoreOpensThanTheOracle(seed: UInt64) {
        let (log, scenario) = Self.case_(seed)
        let oracle = log.replay(OraclePolicy(), scenario: scenario, seed: seed)
        #expect(oracle.violations == 0)
        let best = Dictionary(uniqueKeysWithValues: oracle.perUser.map { ($0.user, $0.tally) })
        var policies: [any FetchPolicy] = Self.policies.map { PolicySpec.parse($0)! }
        policies += [GreedyPolicy(), RandomPolicy(seed: seed, apps: log.appCount)] as [any FetchPolicy]
        for policy in policies {
            let r = log.replay(policy, scenario: scenario, seed: seed)
            #expect(r.total.rescuedOpens <= oracle.total.rescuedOpens, "\(policy.name), seed \(seed)")
            #expect(r.freshRate <= oracle.freshRate, "\(policy.name), seed \(seed)")
            for row in r.perUser {
                #expect(row.tally.rescuedOpens <= best[row.user]?.rescuedOpens ?? 0, "\(policy.name), \(row.user), seed \(seed)")
            }
        }
    }

    @Test(arguments: 0..<8)
    func everyFetchTheOraclePlansSucceedsBeforeItsOpen(seed: UInt64) {
        let (log, scenario) = Self.case_(seed)
        let trace = RecordingTrace()
        let r = log.replay(OraclePolicy(), scenario: scenario, seed: seed, trace: trace)
        #expect(r.total.failed + r.total.terminated == 0)
        #expect(trace.rows.allSatisfy { $0.refusal == nil })
    }

    @Test(arguments: 0..<8)
    func theOracleThatKnowsOnlyTheOpensFetchesOnceAtMostForEachOpenItCouldRescue(seed: UInt64) {
        let (log, scenario) = Self.case_(seed)
        let none = log.replay(NonePolicy(), scenario: scenario, seed: seed).total
        let r = log.replay(OraclePolicy(knowsDraws: false), scenario: scenario, seed: seed)
        #expect(r.policy == "oracle:opens")
        // Blind to the draws, some fetches fail, run late or cost more than planned (and so may
        // find a later one refused), but most rescue the open they were for.
        #expect(r.total.fetches <= none.opens - none.freshOpens)
        #expect(Double(r.total.rescuedOpens) >= 0.5 * Double(r.total.fetches), "seed \(seed)")
    }
}
