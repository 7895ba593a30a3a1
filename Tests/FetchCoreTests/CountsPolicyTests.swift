import FetchBench
import FetchCore
import FetchTesting
import Testing

/// The counting baseline: its tables count what happened, plainly, and it fetches where they say
/// an open is likely and the content is old.
struct CountsPolicyTests {
    /// Ten days on which `mail` follows `news` two minutes later, at 07:00.
    func newsThenMail(days: Int) -> LogBuilder {
        var log = LogBuilder()
        for d in 0..<days {
            log.open("news", at: "07:00", plusDays: d)
            log.open("mail", at: "07:02", plusDays: d)
        }
        return log
    }

    @Test func theTablesCountDaysPerSlotSuccessorsAndUnlockFollowersOnce() {
        var log = LogBuilder()
        log.add(.screenOn, at: "08:00:00")
        log.open("news", at: "08:00:02")  // too soon after the unlock for a fetch started then
        log.open("mail", at: "08:01:00")
        log.open("mail", at: "08:03:00")  // the same quarter-hour of the same day: one day
        log.open("news", at: "08:06:00")  // past the unlock's five minutes
        log.open("mail", at: "08:06:30")
        var counts = OpenCounts()
        for e in log.events { counts.observe(e) }
        let news = log.apps.id("news"), mail = log.apps.id("mail")
        #expect(counts.days == 1 && counts.unlocks == 1 && counts.totalOpens == 5)
        #expect(counts[mail]?.slots[32] == 1 && counts[mail]?.opens == 3)
        #expect(counts.unlockChance(mail) == 0.5 && counts.unlockChance(news) == 0)
        // mail came after each of the two opens of news: 2 of (2 + 1).
        #expect(abs(counts.successorChance(mail, after: news) - 2.0 / 3.0) < 1e-12)
        #expect(counts.successorChance(news, after: news) == 0)
    }

    @Test func itFetchesTheSuccessorAtAnOpenWhenItsCountClearsTheThreshold() {
        let log = newsThenMail(days: 10)
        let trace = RecordingTrace()
        let report = log.replay(CountsPolicy(threshold: 0.5), trace: trace)
        let mail = log.apps.id("mail")
        let fetchedAtNews = trace.rows.filter { $0.app == mail && $0.refusal == nil }
            .filter { row in log.events.contains { $0.kind == .open && $0.time.millis == row.start } }
        #expect(fetchedAtNews.count >= 5)
        #expect(report.total.rescuedOpens >= 5 && report.total.violations == .zero)
        // A threshold above every count fetches nothing at all.
        #expect(log.replay(CountsPolicy(threshold: 0.99)).total.fetches == 0)
    }

    /// The counting baseline and the published peer that also counts by threshold (`ebc`).
    @Test(arguments: ["counts", "ebc"], [0.05, 0.2, 0.6])
    func aLowerThresholdNeverFetchesLessOnGeneratedHabits(family: String, threshold: Double) throws {
        var source = try ArraySource(csv: SyntheticLog.csv(users: 4, days: 10, seed: 5))
        let names = ["\(family):\(threshold)", "\(family):\(threshold * 0.5)"]
        let replays = names.map { makeReplay(policy: PolicySpec.parse($0)!, scenario: .default, seed: 1, users: source.users, apps: source.apps) }
        try source.run(replays)
        let (dear, cheap) = (replays[0].finish().total, replays[1].finish().total)
        #expect(cheap.fetches >= dear.fetches && cheap.rescuedOpens >= dear.rescuedOpens)
        #expect(dear.violations == .zero && cheap.violations == .zero)
    }

    @Test func countsIsAFrontierFamilyReadAtTheEnergyOfAdaptivesPoints() {
        #expect(Frontier.family(of: "counts:0.3") == "counts" && Frontier.family(of: "counts") == "counts")
        let names = Frontier.sweeps(for: .default).first { $0.family == "counts" }!.policies
        #expect(names.count >= 6 && names.allSatisfy { PolicySpec.parse($0) != nil })
        #expect(PolicySpec.parse("counts:0") == nil && PolicySpec.parse("counts:1.5") == nil && PolicySpec.parse("counts:x") == nil)
    }
}
