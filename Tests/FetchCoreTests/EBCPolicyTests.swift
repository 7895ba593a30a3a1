import FetchBench
import FetchCore
import FetchTesting
import Testing

/// The published peer EBC: the same usage probability, one strategy on Wi-Fi and a stricter
/// one, counting bytes, on cellular.
struct EBCPolicyTests {
    /// A scenario where `video` downloads four times a typical app's bytes.
    static let scenario: Scenario = {
        var s = Scenario.default
        var video = s.defaultApp
        video.profile.bytes = 4 * s.defaultApp.profile.bytes
        s.apps = ["video": video]
        return s
    }()

    /// Ten days on which news and video are opened at `clock`, on `network` all day.
    func habits(at clock: String, on network: Network) -> LogBuilder {
        var log = LogBuilder()
        for d in 0..<10 {
            log.add(.network, value: network.rawValue, at: "00:00", plusDays: d)
            log.open("news", at: clock, plusDays: d)
            log.open("video", at: clock, plusDays: d)
        }
        return log
    }

    func fetched(_ log: LogBuilder, _ policy: EBCPolicy, scenario: Scenario = EBCPolicyTests.scenario) -> [String: Int] {
        let trace = RecordingTrace()
        let report = log.replay(policy, scenario: scenario, trace: trace)
        #expect(report.total.violations == .zero)
        return Dictionary(grouping: trace.rows.filter { $0.refusal == nil }, by: { log.apps[$0.app] }).mapValues(\.count)
    }

    @Test func onCellularAHeavyAppNeedsALikelierOpenThanOnWifi() {
        let policy = EBCPolicy(threshold: 0.3)
        let wifi = fetched(habits(at: "07:10", on: .wifi), policy)
        let cellular = fetched(habits(at: "07:10", on: .cellular), policy)
        #expect((wifi["news"] ?? 0) >= 5 && (wifi["video"] ?? 0) >= 5)
        // The same chance clears the bar for news (typical bytes) but not for video (four times them).
        #expect((cellular["news"] ?? 0) >= 5)
        #expect(cellular["video"] == nil)
    }

    @Test func onCellularTheDaysBytesArePacedOverTheDay() {
        // 400 kB of cellular a day: at 01:00 the day allows 17 kB, less than one fetch; at 13:00, 217 kB.
        var small = Self.scenario
        small.cellularBudgetBytes = 400_000
        let policy = EBCPolicy(threshold: 0.3)
        #expect((fetched(habits(at: "01:10", on: .wifi), policy, scenario: small)["news"] ?? 0) >= 5)
        #expect(fetched(habits(at: "01:10", on: .cellular), policy, scenario: small)["news"] == nil)
        #expect((fetched(habits(at: "13:10", on: .cellular), policy, scenario: small)["news"] ?? 0) >= 5)
    }

    @Test func aBudgetAtTheTopOfItsRangeIsPacedWithoutOverflow() {
        var unbounded = Self.scenario
        unbounded.cellularBudgetBytes = .max
        #expect((fetched(habits(at: "07:10", on: .cellular), EBCPolicy(threshold: 0.3), scenario: unbounded)["news"] ?? 0) >= 5)
    }

    @Test func itsKnobIsAFrontierFamilyOfThresholds() {
        #expect(Frontier.family(of: "ebc:0.3") == "ebc" && Frontier.family(of: "ebc") == "ebc")
        let names = Frontier.sweeps(for: .default).first { $0.family == "ebc" }!.policies
        #expect(names.count >= 6 && names.allSatisfy { PolicySpec.parse($0) != nil })
        for bad in ["ebc:0", "ebc:1.5", "ebc:x", "ebc:"] { #expect(PolicySpec.parse(bad) == nil, "\(bad)") }
    }
}
