import FetchBench
import FetchCore
import FetchTesting
import Synchronization
import Testing

/// Silent pushes: the hourly rate limit, holding and piggybacking, and credit for rescues.
struct PushTests {
    /// Four silent pushes in ten minutes for one app, then an alert push for another.
    func burst() -> LogBuilder {
        var log = LogBuilder()
        log.add(.network, value: Network.wifi.rawValue, at: "07:00")
        for clock in ["08:00", "08:03", "08:06", "08:09"] { log.push("news", .silent, at: clock) }
        log.push("chat", .alert, at: "08:40")
        log.open("news", at: "08:41")
        return log
    }

    @Test func fourSilentPushesInTenMinutesDeliverThreeAndHoldOneUntilTheNextAlertPush() {
        let log = burst()
        let trace = RecordingTrace()
        let report = log.replay(NonePolicy(), trace: trace)
        let p = report.total.pushes
        #expect(p.silent == 4 && p.alert == 1)
        #expect(p.deliveredNow == 3 && p.held == 1 && p.deliveredLate == 1 && p.undelivered == 0)
        #expect(p.delayMs == 31 * Millis.minute)  // held at 08:09, delivered with the alert push at 08:40
        let late = trace.pushes.filter { $0.fate == .deliveredLate }
        #expect(late.map(\.time) == [log.time("08:40").millis])
        #expect(late.map(\.receivedAt) == [log.time("08:09").millis])
        // Each delivery woke the app for a fetch, under every hard rule; `none` asked for none itself.
        let news = log.apps.id("news")
        let fetches = trace.rows.filter { $0.app == news && $0.refusal == nil }
        #expect(fetches.map(\.start) == ["08:00", "08:03", "08:06", "08:40"].map { log.time($0).millis })
        #expect(report.violations == 0)
        // The open at 08:41 finds the 08:40 push fetch's content: a rescue credited to pushes.
        #expect(report.total.rescuedOpens == 1 && p.rescuedOpens == 1)
    }

    /// A policy that fetches `mail` at its first decision from 08:30 on each day, keeping what
    /// each view says the day has spent, in all and by the policy's own fetches.
    struct SpendWatcher: FetchPolicy {
        final class Seen: Sendable {
            let views = Mutex<[(time: Int64, all: Int64, own: Int64)]>([])
        }
        let seen = Seen()
        let mail: Int32
        var name: String { "spend-watcher" }
        func makeState() -> Int64 { .min }
        func decide(_ point: DecisionPoint, view: UserView, state lastDay: inout Int64, decision: inout Decision) {
            seen.views.withLock { $0.append((view.now.millis, view.energyUsedToday, view.policyEnergyToday)) }
            let local = LocalTime.floorMod(view.now.millis + Int64(view.offsetMinutes) * Millis.minute, Millis.day)
            if view.localDay != lastDay && local >= 8 * Millis.hour + 30 * Millis.minute {
                lastDay = view.localDay
                decision.fetches.append(mail)
            }
        }
    }

    @Test func theViewCountsThePolicysOwnFetchesApartFromThosePushesStart() throws {
        var log = burst()
        log.open("mail", at: "07:10")
        log.open("mail", at: "09:00", plusDays: 1)
        let trace = RecordingTrace()
        let watcher = SpendWatcher(mail: log.apps.id("mail"))
        _ = log.replay(watcher, trace: trace)
        let seen = watcher.seen.views.withLock { $0 }
        let mail = log.apps.id("mail")
        let own = trace.rows.filter { $0.app == mail && $0.refusal == nil }
        let pushed = trace.rows.filter { $0.app != mail && $0.refusal == nil }
        #expect(own.count == 2 && !pushed.isEmpty)
        // Late on the first day: the pushes' fetches count in all the day spent, not in the policy's.
        let evening = try #require(seen.last { $0.time < log.time("23:59").millis })
        #expect(evening.own == own[0].energyMicroJ)
        #expect(evening.all == own[0].energyMicroJ + pushed.reduce(0) { $0 + $1.energyMicroJ })
        // A new day starts with nothing of either.
        let morning = try #require(seen.first { $0.time >= log.time("00:00", plusDays: 1).millis })
        #expect(morning.own == 0 && morning.all == 0)
        #expect(seen.last!.own == own[1].energyMicroJ)
    }

    @Test func anHourLaterTheLimitAllowsThreeMore() {
        var log = LogBuilder()
        log.add(.network, value: Network.wifi.rawValue, at: "07:00")
        for clock in ["08:00", "08:01", "08:02", "09:00", "09:01", "09:02", "09:03"] { log.push("news", .silent, at: clock) }
        let p = log.replay(NonePolicy()).total.pushes
        #expect(p.deliveredNow == 6 && p.held == 1)
        #expect(p.undelivered == 1)  // no alert push or wake came after it: reported, not dropped
    }

    @Test func aDeviceWakeAlsoDeliversHeldPushes() {
        var log = LogBuilder()
        log.add(.network, value: Network.wifi.rawValue, at: "07:00")
        for clock in ["08:00", "08:01", "08:02", "08:03", "08:04"] { log.push("news", .silent, at: clock) }
        log.add(.screenOn, at: "08:30")
        let trace = RecordingTrace()
        let p = log.replay(NonePolicy(), trace: trace).total.pushes
        #expect(p.held == 2 && p.deliveredLate == 2 && p.undelivered == 0)
        // Two held pushes for one app wake it once.
        let news = log.apps.id("news")
        #expect(trace.rows.filter { $0.app == news && $0.start == log.time("08:30").millis && $0.refusal == nil }.count == 1)
    }

    @Test func theLimitComesFromTheScenario() {
        var s = Scenario.default
        s.silentPushesPerHour = 1
        let p = burst().replay(NonePolicy(), scenario: s).total.pushes
        #expect(p.deliveredNow == 1 && p.held == 3 && p.deliveredLate == 3)
    }
}

/// `push-adaptive`: pushes at content updates when an open is likely before the next one.
struct PushAdaptiveTests {
    /// Two weeks of news opened at 07:30 every day; the news server updates about every 45 min.
    func habit() -> (LogBuilder, Scenario) {
        var log = LogBuilder()
        log.add(.network, value: Network.wifi.rawValue, at: "06:00")
        for d in 0..<14 {
            log.add(.screenOn, at: "07:29", plusDays: d)
            log.open("news", at: "07:30", plusDays: d)
            log.add(.screenOff, at: "07:35", plusDays: d)
        }
        var s = Scenario.default
        s.apps["news"] = AppSettings(interval: .minimum, content: .updates(45 * Millis.minute), profile: s.defaultApp.profile)
        return (log, s)
    }

    @Test func itPushesBeforeTheHabitualOpenAndNotAtNight() {
        let (log, scenario) = habit()
        let trace = RecordingTrace()
        let report = log.replay(PushAdaptivePolicy(alsoFetch: false), scenario: scenario, trace: trace)
        let planned = trace.pushes.filter { $0.silent && $0.fate == .delivered }
        #expect(report.total.pushes.planned > 0)
        #expect(report.violations == 0 && report.total.pushes.held == 0)
        // Every planned push falls in the hours before the 07:30 habit, none in the afternoon.
        for p in planned {
            let minute = LocalTime.floorMod(p.time, Millis.day) / Millis.minute
            #expect(minute >= 5 * 60 && minute <= 7 * 60 + 30, "push at minute \(minute) of the day")
        }
        #expect(report.total.pushes.rescuedOpens > 0)
        #expect(report.total.pushes.rescuedOpens == report.total.rescuedOpens)  // push only: every rescue is a push's
    }

    @Test func onAGeneratedPopulationBothTogetherRescueMoreThanEitherAlone() throws {
        var s = Scenario.default
        s.defaultApp.content = .updates(Millis.hour)
        s.apps["com.example.news"] = AppSettings(interval: .minimum, content: .updates(45 * Millis.minute), profile: s.defaultApp.profile)
        let csv = SyntheticLog.csv(users: 12, days: 10, seed: 3)
        func rescued(_ policy: any FetchPolicy) throws -> Int {
            var source = try ArraySource(csv: csv)
            let replay = makeReplay(policy: policy, scenario: s, seed: 1, users: source.users, apps: source.apps)
            try source.run([replay])
            let report = replay.finish()
            #expect(report.violations == 0)
            return report.total.rescuedOpens
        }
        let both = try rescued(PushAdaptivePolicy(alsoFetch: true))
        let fetchOnly = try rescued(AdaptivePolicy()), pushOnly = try rescued(PushAdaptivePolicy(alsoFetch: false))
        #expect(pushOnly > 0)
        #expect(both > max(fetchOnly, pushOnly))
    }
}
