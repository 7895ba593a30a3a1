import FetchBench
import FetchCore
import FetchExec
import FetchTesting
import Testing

/// What the built-in policies do, and how they rank on logs with known habits.
struct PolicyTests {
    func bench(_ names: [String]) -> [String: ReplayResult] {
        var source = try! ArraySource(csv: SyntheticLog.csv(users: 6, days: 5, seed: 5))
        let replays = names.map { makeReplay(policy: PolicySpec.parse($0)!, scenario: .default, seed: 1, users: source.users, apps: source.apps) }
        try! source.run(replays)
        return Dictionary(uniqueKeysWithValues: zip(names, replays.map { $0.finish() }))
    }

    @Test func everyRegisteredPolicyParsesByItsNameAndHasAHelpLine() {
        for entry in PolicySpec.registry {
            let example = entry.name.replacing("<duration>", with: "15m").replacing("<x>", with: "0.05").replacing("<share>", with: "0.5")
                .replacing("<k>", with: "3").replacing("<command>", with: "./policy").replacing("<threshold>", with: "2h")
            // An exec: policy is made only where a process may be started: with a launcher.
            #expect(PolicySpec.parse(example, launch: { _ in EchoPeer() }) != nil, "\(entry.name)")
            #expect(PolicySpec.helpText.contains("\(entry.name): \(entry.summary)"))
        }
        // Each predictor's rule at the default share, a share and a price, the default's also by its predictor's `ev-` names;
        // each hindsight reference at the default and a share.
        #expect(PolicySpec.known.count == 22 + 3 * ValueRuleFamilies.predictors.count + 3 + 2 * 2)
        let bad = ["sometimes", "fixed:0s", "adaptive:-1", "oracle:draws", "oracle:hindsight@0", "oracle:hindsight-counts:0.1", ""]
        for bad in bad { #expect(PolicySpec.parse(bad) == nil, "\(bad)") }
    }

    @Test func noneFetchesNothingAndTheOracleIsBest() {
        let r = bench(["none", "fixed:15m", "fixed:60m", "oracle"])
        #expect(r["none"]!.total.fetches == 0 && r["none"]!.total.rescuedOpens == 0)
        for name in ["none", "fixed:15m", "fixed:60m"] {
            #expect(r["oracle"]!.freshRate > r[name]!.freshRate, "\(name)")
            #expect(r["oracle"]!.total.rescuedOpens > r[name]!.total.rescuedOpens)
        }
        for report in r.values { #expect(report.violations == 0) }
    }

    @Test func fixedFetchesEveryUsedAppOnItsGrid() {
        var log = LogBuilder()
        log.open("news", at: "07:05")
        log.open("mail", at: "07:06")
        log.open("news", at: "08:20")
        let trace = RecordingTrace()
        _ = log.replay(FixedPolicy(period: 30 * Millis.minute), trace: trace)
        let starts = trace.rows.map { LocalTime.clockText($0.start, offsetMinutes: 0) }
        #expect(starts == ["07:30", "07:30", "08:00", "08:00"])
    }

    @Test func theOracleFetchesOnceBeforeAStaleOpenAndTheFetchSucceedsInTime() throws {
        var log = LogBuilder()
        log.add(.screenOn, at: "00:00:01")
        log.open("news", at: "07:30")
        let trace = RecordingTrace()
        let r = log.replay(OraclePolicy(), trace: trace)
        #expect(r.total.rescuedOpens == 1)
        let fetch = try #require(trace.rows.first)
        #expect(trace.rows.count == 1 && fetch.result?.refreshes == true)
        let open = log.time("07:30").millis
        #expect(fetch.start + fetch.durationMs <= open)
        #expect(fetch.start >= open - 30 * Millis.minute)
    }

    @Test func theOracleWaitsOutAContextThatForbidsFetching() throws {
        var log = LogBuilder()
        log.add(.lowPower, value: 1, at: "07:25")
        log.add(.lowPower, value: 0, at: "07:29:59")
        log.open("news", at: "07:30")
        log.add(.screenOn, at: "00:00:01")
        let trace = RecordingTrace()
        let r = log.replay(OraclePolicy(), trace: trace)
        #expect(r.total.rescuedOpens == 1)
        let fetch = try #require(trace.rows.first)
        // A moment at 07:25 itself still precedes the event that forbids fetching.
        #expect(fetch.start <= log.time("07:25").millis || fetch.start >= log.time("07:29:59").millis)
        #expect(fetch.refusal == nil && fetch.start + fetch.durationMs <= log.time("07:30").millis)
    }

    @Test func theOracleSharesAWakeWhenThatIsCheaper() throws {
        var log = LogBuilder()
        log.add(.network, value: Network.cellular.rawValue, at: "00:00:00")
        log.add(.screenOn, at: "07:10")
        log.open("news", at: "07:30")
        let trace = RecordingTrace()
        _ = log.replay(OraclePolicy(), trace: trace)
        let fetch = try #require(trace.rows.first)
        // The screen woke the cellular radio for its 10 s tail: the fetch starts within it.
        #expect(fetch.start > log.time("07:10").millis && fetch.start <= log.time("07:10:10").millis)
    }
}
