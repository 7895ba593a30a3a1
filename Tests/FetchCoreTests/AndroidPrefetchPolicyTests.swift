import DequeModule
import FetchCore
import FetchTesting
import Testing

/// Android's prefetch rule with its open estimator: the estimate is the past week's first launch
/// a week later (a day later under a day of history), and the job runs once per launch when the
/// estimate is within the threshold less the allowance.
struct AndroidPrefetchPolicyTests {
    /// "news" opened at 08:00 on nine days in a row, "mail" once on the first day; the log ends on
    /// the ninth day at 12:00.
    static func log() -> LogBuilder {
        var log = LogBuilder()
        for day in 0..<9 { log.open("news", at: "08:00", plusDays: day) }
        log.open("mail", at: "12:00")
        log.add(.screenOff, at: "12:00", plusDays: 8)
        return log
    }

    /// What follows from the rule for "news", at threshold `t` (reach `t - allowance`):
    /// on day 1, under a day of history, the estimate is day 0's launch a day later (day 1 at
    /// 08:00); from then on it is the week's first launch a week later: day 0's, so day 7 at 08:00;
    /// once that passes, day 1's, day 8 at 08:00. Each runs `reach` before its estimate, once per
    /// launch. "mail" runs on day 1, 12:00 less the reach, and never again: its estimate of day 7
    /// would come only after a launch.
    @Test(arguments: [("android-prefetch", "07:30", "11:30"), ("android-prefetch:7h", "01:30", "05:30"),
                      ("android-prefetch:15m", "07:52:30", "11:52:30")])
    func theJobRunsWhenTheEstimatedLaunchIsWithinTheThreshold(policy: String, news: String, mail: String) throws {
        let log = Self.log()
        let trace = RecordingTrace()
        let p = try #require(PolicySpec.parse(policy))
        _ = log.replay(p, trace: trace)
        let ran = trace.rows.filter { $0.refusal == nil }
        let newsID = log.apps.id("news"), mailID = log.apps.id("mail")
        #expect(ran.filter { $0.app == newsID }.map(\.start) == [1, 7, 8].map { log.time(news, plusDays: $0).millis })
        #expect(ran.filter { $0.app == mailID }.map(\.start) == [log.time(mail, plusDays: 1).millis])
    }

    @Test func theEstimateIsTheWeeksFirstLaunchAWeekLaterOrADayLaterUnderADay() {
        let day = Millis.day, now: Int64 = 100 * day
        var short: Deque<Int64> = [now - 3 * Millis.hour, now - Millis.hour]
        #expect(AndroidPrefetchPolicy.estimate(&short, now: now) == now - 3 * Millis.hour + day)
        var week: Deque<Int64> = [now - 8 * day, now - 5 * day, now - 2 * day, now - Millis.hour]
        #expect(AndroidPrefetchPolicy.estimate(&week, now: now) == now - 5 * day + 7 * day)
        #expect(week.first == now - 5 * day, "launches older than the week are dropped")
        var old: Deque<Int64> = [now - 9 * day]
        #expect(AndroidPrefetchPolicy.estimate(&old, now: now) == nil, "no launch in the week: unknown")
        #expect(old.isEmpty)
    }

    @Test(arguments: [(Millis.hour, 30 * Millis.minute), (7 * Millis.hour, 30 * Millis.minute),
                      (15 * Millis.minute, 15 * Millis.minute / 2)])
    func theAllowanceIsLaterReleasesHalfHourOrHalfAShorterThreshold(threshold: Int64, allowance: Int64) {
        #expect(AndroidPrefetchPolicy.allowance(threshold: threshold) == allowance)
    }

    @Test(arguments: ["android-prefetch:0s", "android-prefetch:25h", "android-prefetch:", "android-prefetch:-1h"])
    func aThresholdOutOfRangeNamesNoPolicy(name: String) {
        #expect(PolicySpec.parse(name) == nil)
        #expect(PolicySpec.problem(with: name).contains("android-prefetch:<threshold>"))
    }
}
