import FetchBench
import FetchCore
import FetchTesting
import Testing

/// The published peer APPM: its predictor learns which app comes next from the app sequence
/// (the longer context first) and how soon, and the policy prefetches the top apps at unlock.
struct APPMPolicyTests {
    /// The model after `log`'s events.
    func model(_ log: LogBuilder) -> AppSequenceModel {
        var m = AppSequenceModel()
        for e in log.events { m.observe(e) }
        return m
    }

    @Test func theLongerContextDecidesWhereTheShorterOneIsAmbiguous() {
        // b is followed by c after a (six times) and by e after d (twice): b alone says c.
        var log = LogBuilder()
        var minute = 0
        func run(_ apps: [String]) {
            for app in apps {
                log.open(app, at: "\(6 + minute / 60):\(minute % 60)")
                minute += 2
            }
        }
        for _ in 0..<6 { run(["a", "b", "c"]) }
        for _ in 0..<2 { run(["d", "b", "e"]) }
        run(["d", "b"])
        let (c, e) = (log.apps.id("c"), log.apps.id("e"))
        let afterDB = model(log)
        #expect(afterDB.nextChance(e) > afterDB.nextChance(c))
        run(["e", "a", "b"])
        let afterAB = model(log)
        #expect(afterAB.nextChance(c) > 4 * afterAB.nextChance(e))
        // The chances over every app seen (and the rest spread over them) sum to one.
        let total = (0..<Int32(log.apps.count)).reduce(0.0) { $0 + afterAB.nextChance($1) }
        #expect(abs(total - 1) < 1e-9)
    }

    @Test func itLearnsHowSoonAnAppComesAfterItsCue() {
        // quick comes a minute after each unlock; slow two hours after the open before it.
        var log = LogBuilder()
        for d in 0..<8 {
            log.add(.screenOn, at: "07:00", plusDays: d)
            log.open("quick", at: "07:01", plusDays: d)
            log.open("slow", at: "09:01", plusDays: d)
        }
        log.add(.screenOn, at: "07:00", plusDays: 8)
        let m = model(log), now = log.time("07:00", plusDays: 8).millis
        let (quick, slow) = (log.apps.id("quick"), log.apps.id("slow"))
        #expect(m.withinChance(quick, now: now, span: 10 * Millis.minute) == 1)
        #expect(m.withinChance(slow, now: now, span: 10 * Millis.minute) == 0)
        #expect(m.withinChance(slow, now: now, span: 3 * Millis.hour) == 1)
        // Past the time it usually comes, the chance is what is left of the histogram.
        #expect(m.withinChance(quick, now: now + 2 * Millis.day, span: Millis.hour) == 0)
    }

    /// Ten days on which each unlock, morning and evening, is followed by news then mail.
    func unlockNewsMail(days: Int) -> LogBuilder {
        var log = LogBuilder()
        for d in 0..<days {
            for hour in ["07", "20"] {
                log.add(.screenOn, at: "\(hour):00", plusDays: d)
                log.open("news", at: "\(hour):01", plusDays: d)
                log.open("mail", at: "\(hour):03", plusDays: d)
            }
        }
        return log
    }

    @Test(arguments: [1, 2])
    func atEachUnlockItPrefetchesTheAppsItRanksFirst(k: Int) {
        let log = unlockNewsMail(days: 10)
        let trace = RecordingTrace()
        let report = log.replay(PolicySpec.parse("appm:\(k)")!, trace: trace)
        let unlocks = Set(log.events.filter { $0.kind == .screenOn }.map(\.time.millis))
        let fetched = trace.rows.filter { $0.refusal == nil }
        #expect(fetched.allSatisfy { unlocks.contains($0.start) }, "only at unlocks")
        let byUnlock = Dictionary(grouping: fetched, by: \.start)
        #expect(byUnlock.values.allSatisfy { $0.count <= k })
        // After mail, news has always come next: the one app appm:1 fetches once it has learned.
        let (news, mail) = (log.apps.id("news"), log.apps.id("mail"))
        let late = fetched.filter { $0.start >= log.time("07:00", plusDays: 2).millis }
        #expect(late.count == (k == 1 ? 16 : 32))
        #expect(late.filter { $0.app == news }.count == 16)
        #expect(late.filter { $0.app == mail }.count == (k == 1 ? 0 : 16))
        #expect(report.total.rescuedOpens >= late.count && report.total.violations == .zero)
    }

    @Test func withoutScreenEventsTheFirstOpenOfASessionStandsInForTheUnlock() {
        var log = LogBuilder()
        for d in 0..<6 {
            for hour in ["07", "12", "19"] {
                log.open("news", at: "\(hour):00", plusDays: d)
                log.open("mail", at: "\(hour):01", plusDays: d)
                log.open("chat", at: "\(hour):02", plusDays: d)
            }
        }
        let trace = RecordingTrace()
        _ = log.replay(APPMPolicy(apps: 2), trace: trace)
        let starts = Set(log.events.filter { log.apps[$0.app] == "news" }.map(\.time.millis))
        let fetched = trace.rows.filter { $0.refusal == nil }
        #expect(!fetched.isEmpty && fetched.allSatisfy { starts.contains($0.start) })
        #expect(fetched.allSatisfy { $0.app != log.apps.id("news") }, "never the app just opened")
        // A screen event turns the stand-in off: from then on only unlocks count.
        var screened = log
        screened.add(.screenOff, at: "06:00")
        #expect(screened.replay(APPMPolicy(apps: 2)).total.fetches == 0)
    }

    @Test func itsKnobIsAFrontierFamilyOfAppCounts() {
        #expect(Frontier.family(of: "appm:3") == "appm" && Frontier.family(of: "appm") == "appm")
        let names = Frontier.sweeps(for: .default).first { $0.family == "appm" }!.policies
        #expect(names.count >= 5 && names.allSatisfy { PolicySpec.parse($0) != nil })
        for bad in ["appm:0", "appm:17", "appm:1.5", "appm:x", "appm:"] { #expect(PolicySpec.parse(bad) == nil, "\(bad)") }
    }

    /// The counts and tables the model keeps for asking quickly agree with those it learns from,
    /// checked every few dozen events and after each of the last ones, over seeded logs that
    /// overflow every table: more apps than the table of all opens holds, more followers than a
    /// context keeps, more pairs than it remembers.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func whatTheModelKeepsForAskingAgreesWithWhatItLearnsFromAllThroughSeededLogs(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var m = AppSequenceModel()
        var t: Int64 = 1_700_000_000_000
        var evicted = false
        for step in 0..<4_000 {
            t += Int64.random(in: 1...600_000, using: &rng)
            // A few apps often and many seldom, so that a table's lightest entries are replaced.
            let app = Bool.random(using: &rng) ? Int32.random(in: 0..<12, using: &rng) : Int32.random(in: 0..<400, using: &rng)
            let unlock = Int.random(in: 0..<8, using: &rng) == 0
            m.observe(UsageEvent(time: Instant(millis: t), user: 0, app: unlock ? -1 : app, kind: unlock ? .screenOn : .open))
            if step % 37 == 0 || step > 3_980 {
                let found = m.invariantViolations
                #expect(found.isEmpty, "after event \(step): \(found.prefix(3))")
                if !found.isEmpty { return }
            }
            evicted = evicted || m.order0.entries.count == 256 && m.appsSeen > 256
        }
        #expect(evicted, "the log never filled the table of all opens")
        #expect(m.order2.count == AppSequenceModel.maxContexts)
        // Every app's chance is a share of one, and the apps seen share it all but what fell out.
        let chances = (0..<Int32(400)).map { m.nextChance($0) }
        #expect(chances.allSatisfy { $0 >= 0 && $0 <= 1 })
        #expect(chances.reduce(0, +) > 0.5)
    }
}
