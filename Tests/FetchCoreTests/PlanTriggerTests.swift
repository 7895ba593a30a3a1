import FetchBench
import FetchCore
import FetchResults
import FetchTesting
import Testing

/// A plan's trigger entries: what the policy would do at the wakes that may come, each the
/// engine's own decision at such a wake.
struct PlanTriggerTests {
    struct Log {
        var events: [UsageEvent]
        let users: NameTable
        let apps: NameTable
    }

    /// A generated log (screen_on before each session, charging at night).
    static func generated(users: Int = 1, days: Int = 21, seed: UInt64) -> Log {
        var source = try! ArraySource(csv: SyntheticLog.csv(users: users, days: days, seed: seed))
        var events: [UsageEvent] = []
        while let e = source.next() { events.append(e) }
        return Log(events: events, users: source.users, apps: source.apps)
    }

    /// The plan of `app` for the first user at `at`, from the events up to it.
    static func plan(_ log: Log, app: String, at: Int64, scenario: Scenario = .default) -> FetchPlan {
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        return try! FetchPlanner(scenario: scenario, seed: 1)
            .plan(&source, user: log.users[0], app: app, at: Instant(millis: at), horizon: Millis.day)
    }

    /// The user's apps, most opened first.
    static func habitual(_ log: Log) -> [String] {
        var counts: [Int32: Int] = [:]
        for e in log.events where e.kind == .open && e.user == 0 { counts[e.app, default: 0] += 1 }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { log.apps[$0.key] }
    }

    static func engineRows(_ log: Log, cut: Int64, wake: UsageEvent, scenario: Scenario = .default) -> [String] {
        SupposedWake.engineRows(events: log.events, users: log.users, apps: log.apps, cut: cut, wake: wake, scenario: scenario)
    }

    /// The log event a trigger supposes.
    static func event(of t: FetchPlan.Trigger, app: String, log: Log) -> UsageEvent {
        let offset = log.events.last!.offsetMinutes
        let time = Instant(millis: t.time)
        switch t.kind {
        case .screenOn: return UsageEvent(time: time, user: 0, kind: .screenOn, offsetMinutes: offset)
        case .plugged: return UsageEvent(time: time, user: 0, kind: .plugged, offsetMinutes: offset)
        case .open(let after): return UsageEvent(time: time, user: 0, app: log.apps.id(after), kind: .open, offsetMinutes: offset)
        case .push: return UsageEvent(time: time, user: 0, app: log.apps.id(app), kind: .push, value: PushKind.silent.rawValue,
                                      offsetMinutes: offset)
        }
    }

    @Test(arguments: [UInt64(3), 8])
    func aUserWithScreenEventsGetsTriggersForItsHabitualApps(seed: UInt64) {
        let log = Self.generated(seed: seed)
        let at = log.events[log.events.count * 3 / 4].time.millis
        var fetches = 0
        for app in Self.habitual(log).prefix(3) {
            let p = Self.plan(log, app: app, at: at)
            let unlock = p.triggers.first { $0.kind == .screenOn }
            #expect(unlock != nil, "no unlock trigger for \(app)")
            #expect((unlock?.chance ?? 0) > 0.5)
            #expect(p.triggers.contains { $0.kind == .plugged })
            #expect(p.triggers.contains { if case .open = $0.kind { true } else { false } })
            for t in p.triggers {
                #expect(!t.reason.isEmpty)
                #expect(t.windowStart >= at && t.windowStart <= t.time && t.time <= t.windowEnd && t.windowEnd <= at + Millis.day)
                #expect(t.chance > 0 && t.chance <= 1)
                if t.fetch { fetches += 1 }
            }
            #expect(p.explanation.contains("at your next unlock"))
        }
        #expect(fetches > 0)
    }

    @Test func aNeverAppGetsNoTriggers() {
        let log = Self.generated(seed: 3)
        let app = Self.habitual(log)[0]
        var s = Scenario.default
        s.apps[app] = AppSettings(interval: .never, content: s.defaultApp.content, profile: s.defaultApp.profile)
        let p = Self.plan(log, app: app, at: log.events[log.events.count / 2].time.millis, scenario: s)
        #expect(p.triggers.isEmpty)
        #expect(p.entries.isEmpty)
        #expect(p.reason?.contains("never") == true)
    }

    @Test(arguments: [UInt64(3), 5])
    func eachTriggerIsTheEnginesDecisionAtThatWake(seed: UInt64) {
        let log = Self.generated(seed: seed)
        let cut = log.events[log.events.count * 2 / 3].time.millis
        var checked = 0
        for app in Self.habitual(log).prefix(4) {
            let p = Self.plan(log, app: app, at: cut)
            for t in p.triggers {
                let rows = Self.engineRows(log, cut: cut, wake: Self.event(of: t, app: app, log: log)).filter { $0.hasPrefix(app + " ") }
                let mine = rows.first
                #expect((mine?.contains(" ran ") ?? false) == t.fetch, "\(app) \(t.kind)")
                #expect(mine.map { $0.split(separator: " ")[1] == (t.refusal?.traceName ?? "ran") } ?? (t.refusal == nil))
                if t.fetch, let e = t.energyMicroJ { #expect(mine?.contains(" \(e) ") == true) }
                checked += 1
            }
        }
        #expect(checked >= 8)
    }

    @Test func theWakeAnswerIsTheEnginesDecisionAtThatMoment() {
        let log = Self.generated(seed: 4)
        let planner = FetchPlanner(scenario: .default, seed: 1)
        // Moments through a day after the log's middle, off the tick grid and at it.
        let start = log.events[log.events.count / 2].time.millis
        var fetched = 0
        for step in 0..<12 {
            let t = start + Int64(step) * 2 * Millis.hour + (step % 2 == 0 ? 7 * Millis.minute + 13_000 : 0)
            var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
            let session = try! planner.session(&source, user: log.users[0], through: Instant(millis: t))
            for kind in WakeKind.allCases {
                let answer = session.wake(kind, at: t)!
                let wake = UsageEvent(time: Instant(millis: t), user: 0, kind: kind.event,
                                      offsetMinutes: log.events[0].offsetMinutes)
                let engine = Self.engineRows(log, cut: t, wake: wake)
                #expect(answer.fetches.map { SupposedWake.line(app: $0.app, $0.refusal, $0.network, $0.energyMicroJ, $0.bytes) } == engine)
                fetched += answer.fetches.count
            }
        }
        #expect(fetched > 0)
    }

    @Test func aUserWithoutScreenEventsHasNoUnlockTriggerAndTheReplaysTimedPlan() throws {
        var log = LogBuilder(offsetMinutes: 60)
        for d in 0..<14 {
            log.open("other", at: "12:00", plusDays: d)
            log.open("news", at: "12:03", plusDays: d)
            if d % 7 < 5 { log.open("news", at: "07:30", plusDays: d) }
        }
        let cut = log.time("20:00", plusDays: 13)
        var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
        let p = try FetchPlanner(scenario: .default, seed: 1).plan(&source, user: "alice", app: "news", at: cut, horizon: Millis.day)
        #expect(!p.triggers.contains { $0.kind == .screenOn || $0.kind == .plugged })
        #expect(p.triggers.contains { $0.kind == .open(after: "other") })
        // The timed entries are what the replay does from that moment.
        let replayed = SupposedWake.timedFetches(events: log.events, users: log.users, apps: log.apps, cut: cut, horizon: Millis.day,
                                                 app: "news")
        #expect(!p.entries.isEmpty)
        #expect(replayed.map(\.start) == p.entries.map(\.time))
    }

    @Test func aDailyUnlockIsForecastAtItsHour() {
        var log = LogBuilder(offsetMinutes: 60)
        for d in 0..<14 {
            log.add(.screenOn, at: "07:00", plusDays: d)
            log.open("news", at: "07:00:30", plusDays: d)
            log.add(.plugged, at: "22:30", plusDays: d)
        }
        var model = UsageModel()
        for e in log.events.sorted(by: { $0.time < $1.time }) { model.observe(e) }
        let from = log.time("06:00", plusDays: 14).millis
        let unlock = try! #require(model.screenOnForecast(from: from, span: Millis.day, offsetMinutes: 60))
        #expect(unlock.chance > 0.9)
        #expect(unlock.early >= 45 * Millis.minute && unlock.late <= 75 * Millis.minute)
        let plug = try! #require(model.plugForecast(from: from, span: Millis.day, offsetMinutes: 60))
        #expect(plug.median >= 16 * Millis.hour && plug.median <= 17 * Millis.hour)
        #expect(model.screenOnForecast(from: from, span: 30 * Millis.minute, offsetMinutes: 60)?.chance ?? 0 < 0.05)
    }

    /// The open triggers name the apps likeliest to be opened just before the app within the
    /// horizon (successor chance times the chance of their open), at most three, each with its
    /// own open's forecast: ranked here from the forecasts of every candidate.
    @Test(arguments: [UInt64(3), 8, 21])
    func theOpenTriggersAreTheLikeliestPredecessorsWithTheirForecasts(seed: UInt64) {
        let log = Self.generated(seed: seed)
        var rng = SplitMix64(seed: seed)
        var listed = 0
        for _ in 0..<4 {
            let at = log.events[rng.int(in: log.events.count / 2...log.events.count - 1)].time.millis
            var model = UsageModel()
            for e in log.events where e.user == 0 && e.time.millis <= at { model.observe(e) }
            for app in Self.habitual(log).prefix(5) {
                let id = log.apps.id(app)
                let ranked = model.apps.keys.compactMap { other -> (String, Double, WakeForecast)? in
                    let follows = model.successorProbability(id, after: other)
                    guard other != id, follows > 0, let f = model.openForecast(other, from: at, span: Millis.day) else { return nil }
                    return (log.apps[other], follows * f.chance, f)
                }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(3)
                let opens = Self.plan(log, app: app, at: at).triggers.filter { if case .open = $0.kind { true } else { false } }
                #expect(opens.map(\.kind) == ranked.map { .open(after: $0.0) }, "\(app) at \(at)")
                #expect(opens.map(\.chance) == ranked.map(\.2.chance))
                #expect(opens.map(\.windowStart) == ranked.map { at + $0.2.early })
                #expect(opens.map(\.windowEnd) == ranked.map { at + $0.2.late })
                listed += opens.count
            }
        }
        #expect(listed > 0)
    }
}
