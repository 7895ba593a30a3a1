import FetchCore
import FetchTesting
import Testing

/// In a log without screen events a session's first open stands for the unlock the log did not
/// record: `adaptive` weighs the session's apps there as at an unlock, with no re-open veto.
struct SessionStartTests {
    /// Fourteen days, opens only: each morning news, then mail three minutes later (each once a day).
    func newsThenMail() -> LogBuilder {
        var log = LogBuilder()
        for d in 0..<14 {
            log.open("news", at: "08:00", plusDays: d)
            log.open("mail", at: "08:03", plusDays: d)
        }
        return log
    }

    /// At a price where mail clears the bar by its session chance alone, not once the rhythm's
    /// veto has sharpened it.
    @Test func theSessionsAppsAreFetchedAtItsFirstOpenThoughTheyComeOnlyOnceADay() {
        let log = newsThenMail()
        let trace = RecordingTrace()
        let report = log.replay(PolicySpec.parse("adaptive:0.3")!, trace: trace)
        let mail = log.apps.id("mail")
        let starts = Set(log.events.filter { $0.app == log.apps.id("news") }.map(\.time.millis))
        // Mail's gaps are a day long, so its rhythm gives a return within ten minutes almost no
        // chance; weighed as at an unlock, its chance of coming in the session carries it.
        let atStarts = trace.rows.filter { $0.refusal == nil && $0.app == mail && starts.contains($0.start) }
        #expect(atStarts.count >= 7)
        #expect(report.total.rescuedOpens >= 7 && report.total.violations == .zero)
    }

    @Test func theOpenStandsForAnUnlockOnlyWithoutScreenEvents() {
        var model = UsageModel()
        let log = newsThenMail()
        for e in log.events { model.observe(e) }
        let lastNews = log.time("08:00", plusDays: 13).millis, lastMail = log.time("08:03", plusDays: 13).millis
        #expect(model.opensSession(at: lastMail) == false)
        var screened = log
        screened.add(.screenOn, at: "07:59:50", plusDays: 14)
        screened.open("news", at: "08:00", plusDays: 14)
        var withScreen = UsageModel()
        for e in screened.events { withScreen.observe(e) }
        #expect(withScreen.opensSession(at: log.time("08:00", plusDays: 14).millis) == false)
        var fresh = UsageModel()
        for e in log.events where e.time.millis <= lastNews { fresh.observe(e) }
        #expect(fresh.opensSession(at: lastNews))
    }
}
