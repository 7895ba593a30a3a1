import FetchCore
import FetchTesting
import Testing

/// The freshness metric on small logs computed by hand (docs/metrics.md, "Freshness").
struct FreshnessTests {
    /// Fetches that always take exactly `seconds` and never fail, on a 30-minute window.
    static func scenario(fetchSeconds: Double = 2, content: ContentModel = .window(30 * Millis.minute)) -> Scenario {
        var s = Scenario.default
        let ms = Int64(fetchSeconds * 1000)
        s.defaultApp.profile = FetchProfile(durationMedian: ms, durationP95: ms, bytes: 150_000, noDataBytes: 2_000, failureRate: 0)
        s.defaultApp.content = content
        return s
    }

    func fetch(_ log: LogBuilder, _ app: String, at clock: String) -> (time: Instant, app: Int32) {
        (log.time(clock), log.apps.id(app))
    }

    /// A user's replay starts at its first event: begin the day with one that wakes nothing.
    func day() -> LogBuilder {
        var log = LogBuilder()
        log.add(.unplugged, at: "00:00")
        return log
    }

    @Test func anOpenRightAfterAFetchIsFreshAndRescued() {
        var log = day()
        log.open("news", at: "07:10")
        let r = log.replay(ScriptedPolicy([fetch(log, "news", at: "07:00")]), scenario: Self.scenario())
        #expect(r.total.opens == 1)
        #expect(r.total.freshOpens == 1)
        #expect(r.total.rescuedOpens == 1)
        #expect(r.total.fetches == 1 && r.total.newData == 1)
    }

    @Test func anOpenAfterTheWindowIsStaleByTheMinutesPastIt() throws {
        var log = day()
        log.open("news", at: "07:40")
        let r = log.replay(ScriptedPolicy([fetch(log, "news", at: "07:00")]), scenario: Self.scenario())
        #expect(r.total.freshOpens == 0)
        #expect(r.total.rescuedOpens == 0)
        // Stale since 07:30 (the 07:00 content plus the 30-minute window): 10 minutes.
        let median = try #require(r.total.staleness.quantile(0.5))
        #expect(abs(median / 60 - 10) < 0.2)
    }

    @Test func anOpenAfterAnEarlierOpenIsFreshButNotRescued() {
        var log = day()
        log.open("news", at: "07:00")
        log.open("news", at: "07:20")
        let r = log.replay(NonePolicy(), scenario: Self.scenario())
        #expect(r.total.opens == 2)
        #expect(r.total.freshOpens == 1)  // the first open found nothing refreshed
        #expect(r.total.rescuedOpens == 0)
    }

    @Test func aTerminatedFetchRefreshesNothingAndCostsItsFullDeadline() {
        var log = day()
        log.open("news", at: "07:10")
        let r = log.replay(ScriptedPolicy([fetch(log, "news", at: "07:00")]), scenario: Self.scenario(fetchSeconds: 40))
        #expect(r.total.terminated == 1)
        #expect(r.total.freshOpens == 0)
        // Wi-Fi wake 1.5 J + 30 s at 1 W + 3/4 of 150 kB at 1 J/MB (cut at 30 of 40 s).
        #expect(r.total.energyMicroJ == 1_500_000 + 30_000_000 + 112_500)
    }

    @Test func aFetchStillRunningAtTheOpenDoesNotCount() {
        var log = day()
        log.open("news", at: "07:10:00")
        let r = log.replay(ScriptedPolicy([fetch(log, "news", at: "07:09:59")]), scenario: Self.scenario(fetchSeconds: 2))
        #expect(r.total.fetches == 1)
        #expect(r.total.freshOpens == 0)
    }

    @Test func aFailedFetchRefreshesNothing() {
        var s = Self.scenario()
        s.defaultApp.profile.failureRate = 1
        var log = day()
        log.open("news", at: "07:10")
        let r = log.replay(ScriptedPolicy([fetch(log, "news", at: "07:00")]), scenario: s)
        #expect(r.total.failed == 1)
        #expect(r.total.freshOpens == 0)
    }

    @Test func underUpdatesAnOpenIsFreshOnlyUntilTheNextUpdate() {
        var log = day()
        log.add(.screenOn, at: "00:00")
        let origin = log.time("00:00").millis
        var updates = UpdateProcess(seed: 1, userHash: StableHash.of("alice"), appHash: StableHash.of("news"),
                                    origin: origin, meanGap: 45 * Millis.minute)
        let u1 = updates.step(), u2 = updates.step()
        let clock = { (t: Int64) in LocalTime.isoText(t, offsetMinutes: 0).dropFirst(11).prefix(12) }
        log.open("news", at: String(clock(u2 - 1_000)))   // after the fetch, before the next update
        log.open("news", at: String(clock(u2 + 60_000)))  // after the next update
        let fetchAt = Instant(millis: u1 + 1_000)
        let r = log.replay(ScriptedPolicy([(fetchAt, log.apps.id("news"))]),
                           scenario: Self.scenario(content: .updates(45 * Millis.minute)))
        try? #require(u2 - u1 > 5_000)
        #expect(r.total.newData == 1)
        #expect(r.total.opens == 2)
        #expect(r.total.freshOpens == 1)
        #expect(r.total.rescuedOpens == 1)
    }

    /// Wi-Fi: wake 1.5 J + 2 s at 1 W + 150 kB at 1 J/MB; cellular: 12 J + 2 J + 150 kB at 4 J/MB.
    @Test(arguments: [(Network.wifi, Int64(3_650_000)), (Network.cellular, Int64(14_600_000))])
    func aFetchCostsWakeProcessingAndTransfer(network: Network, microJ: Int64) {
        var log = day()
        log.add(.network, value: network.rawValue, at: "06:00")
        log.open("news", at: "08:00")
        let r = log.replay(ScriptedPolicy([fetch(log, "news", at: "07:00")]), scenario: Self.scenario())
        #expect(r.total.energyMicroJ == microJ)
        #expect(network == .cellular ? r.total.cellularBytes == 150_000 : r.total.wifiBytes == 150_000)
    }

    @Test func fetchesInOneWakeShareTheRadioWakeUp() {
        var log = day()
        log.add(.screenOn, at: "07:00")
        log.open("mail", at: "09:00")
        let news = fetch(log, "news", at: "07:00:01"), mail = fetch(log, "mail", at: "07:00:01")
        let r = log.replay(ScriptedPolicy([news, mail]), scenario: Self.scenario())
        // Both start within the Wi-Fi tail of the screen_on wake: no wake-up cost for either.
        #expect(r.total.energyMicroJ == 2 * (2_000_000 + 150_000))
    }
}
