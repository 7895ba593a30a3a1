@testable import FetchBench
@testable import FetchCore
import FetchTesting
import Testing

/// The hindsight references: the value rule over a predictor that read the user's whole log
/// before the replay began (`oracle:hindsight`, `oracle:hindsight-counts`).
struct HindsightPolicyTests {
    /// The log of one user in the engine's order: by time, each instant's events canonically.
    func ordered(_ events: [UsageEvent]) -> [UsageEvent] {
        events.sorted { $0.time != $1.time ? $0.time < $1.time : $0.canonicallyPrecedes($1) }
    }

    func counts(_ events: [UsageEvent]) -> OpenCounts {
        var c = OpenCounts()
        for e in ordered(events) { c.observe(e) }
        return c
    }

    /// Read in hindsight at any moment, the counts hold the whole log (moved back by whole weeks,
    /// so on days of their own, each open in its own quarter-hour) and, again, the log replayed
    /// so far: each table is the sum of the two, over seeded random logs cut at random moments.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func theCountsReadInHindsightAreTheWholeLogsPlusThePast(seed: UInt64) {
        let log = RandomLog(seed: seed, users: 1, days: 3 + Int(seed) * 4)
        let events = ordered(log.events)
        var r = SplitMix64(seed: seed)
        let cut = r.int(in: 0...events.count)
        let policy = HindsightPolicy(CountsPredictor(), label: "oracle:hindsight-counts")
        let fitted = policy.fitted(before: Array(events[..<cut]), future: events[cut...]).counts
        let whole = counts(events), past = counts(Array(events[..<cut]))
        #expect(fitted.days == whole.days + past.days, "seed \(seed)")
        #expect(fitted.totalOpens == whole.totalOpens + past.totalOpens && fitted.unlocks == whole.unlocks + past.unlocks)
        for app in Int32(0)..<log.appCount {
            let w = whole[app], p = past[app], f = fitted[app]
            let opens: (Int32, Int32, Int32) = (f?.opens ?? 0, w?.opens ?? 0, p?.opens ?? 0)
            #expect(opens.0 == opens.1 + opens.2, "seed \(seed) app \(app)")
            let empty = [Int32](repeating: 0, count: OpenCounts.slotsPerDay)
            let (fs, ws, ps) = (f?.slots ?? empty, w?.slots ?? empty, p?.slots ?? empty)
            for slot in 0..<OpenCounts.slotsPerDay {
                #expect(fs[slot] == ws[slot] + ps[slot], "seed \(seed) app \(app) slot \(slot)")
            }
        }
    }

    /// The moved log keeps each event's time of week and ends at least two days before the log
    /// begins, for spans from nothing to a year.
    @Test(arguments: [Int64(0), 1, Millis.day, 5 * Millis.day - 1, 7 * Millis.day, 12 * Millis.day + 7, 366 * Millis.day])
    func theLogIsMovedBackByWholeWeeksPastItsSpan(span: Int64) {
        let shift = HindsightPolicy<CountsPredictor>.shift(first: 1_000, last: 1_000 + span)
        #expect(shift % (7 * Millis.day) == 0)
        #expect(1_000 + span - shift <= 1_000 - 2 * Millis.day)
        #expect(shift <= span + 9 * Millis.day)
    }

    /// A habit every morning and an app each afternoon at one of five hours: the rule over counts
    /// read causally learns them day by day; read in hindsight it knows them from the first day,
    /// and rescues more over the log and on the first day it can rescue anything.
    @Test func hindsightRescuesTheMorningsTheCausalRuleHasNotYetSeen() {
        var log = LogBuilder(date: (2025, 3, 3), offsetMinutes: 60)
        for d in 0..<14 {
            log.add(.screenOn, at: "07:25", plusDays: d)
            log.open("news", at: "07:30", plusDays: d)
            log.add(.screenOff, at: "07:35", plusDays: d)
            log.open("mail", at: "\(12 + d % 5):10", plusDays: d)
        }
        let causal = log.replay(PolicyRegistry.builtIn.make("ev-counts")!)
        let hindsight = log.replay(PolicyRegistry.builtIn.make("oracle:hindsight-counts")!)
        #expect(hindsight.policy == "oracle:hindsight-counts")
        #expect(hindsight.total.rescuedOpens > causal.total.rescuedOpens,
                "hindsight \(hindsight.total.rescuedOpens), causal \(causal.total.rescuedOpens)")
        // The second day is the first with an open to rescue (an app's first open finds no content to
        // refresh): causally the afternoon's app has one day behind it, in hindsight fourteen.
        #expect(hindsight.perDay[1].tally.rescuedOpens > causal.perDay[1].tally.rescuedOpens,
                "hindsight \(hindsight.perDay.map(\.tally.rescuedOpens)), causal \(causal.perDay.map(\.tally.rescuedOpens))")
    }

    /// Each reference is a swept family of its own, found from any of its points' names, and a
    /// knob out of range names the reference's own pattern. The default's other names (its
    /// predictor's, `ev-counts`, and its reference's, `oracle:hindsight-counts`) are not swept twice.
    @Test(arguments: [("oracle:hindsight@0.1", "oracle:hindsight"), ("oracle:hindsight", "oracle:hindsight"),
                      ("oracle:hindsight-counts@1", nil), ("adaptive@0.04", "adaptive"), ("ev-habits:0.001", "ev-habits"),
                      ("oracle:opens", nil), ("oracle", nil), ("ev-counts:0.001", nil)] as [(String, String?)])
    func aPointsFamilyIsTheLongestSweptNameBeforeItsKnob(policy: String, family: String?) {
        #expect(Frontier.family(of: policy) == family)
    }

    @Test func theReferencesAreSweptAndTheirKnobsAreBounded() {
        let names = Frontier.sweeps(for: .default).map(\.family)
        #expect(names.contains("oracle:hindsight") && !names.contains("oracle:hindsight-counts") && !names.contains("ev-counts"))
        #expect(PolicySpec.parse("oracle:hindsight-counts@0.1")?.name == "oracle:hindsight-counts@0.1")
        #expect(ValueRuleFamilies.hindsightShares.first == "0.01" && ValueRuleFamilies.hindsightShares.last == "1")
        #expect(PolicySpec.parse("oracle:hindsight@1.5") == nil)
        #expect(PolicySpec.problem(with: "oracle:hindsight@1.5").contains("oracle:hindsight@<share>"))
        #expect(PolicySpec.problem(with: "oracle:hindsight-counts@x").contains("oracle:hindsight-counts@<share>"))
    }
}
