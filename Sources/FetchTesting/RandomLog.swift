import FetchCore

/// Random usage logs and scenarios for property tests: several users at several UTC offsets,
/// opens of a handful of apps, and every kind of context event, including the ones that
/// forbid fetching (Low Power Mode, no network, low battery).
public struct RandomLog {
    public let users = NameTable()
    public let apps = NameTable()
    public private(set) var events: [UsageEvent] = []
    public let appCount: Int32

    public init(seed: UInt64, users userCount: Int = 3, days: Int = 3, eventsPerDay: Int = 120, apps appCount: Int = 6) {
        var r = SplitMix64(seed: seed, 0x72_6C_6F_67)
        self.appCount = Int32(appCount)
        for a in 0..<appCount { _ = apps.id("app\(a)") }
        let start = LocalTime.days(year: 2025, month: 3, day: 3) * Millis.day
        for u in 0..<userCount {
            let user = users.id("u\(u)")
            let offset = Int16([0, 60, -300, 330, 540][r.int(in: 0...4)])
            var t = start + Int64(r.int(in: 0...3_600_000))
            let end = start + Int64(days) * Millis.day
            while t < end {
                t += Int64(r.exponential(mean: Double(Millis.day) / Double(eventsPerDay)))
                var e = UsageEvent(time: Instant(millis: t), user: user, kind: .open, offsetMinutes: offset)
                switch r.int(in: 0...19) {
                case 0...9: e.app = Int32(r.int(in: 0...(appCount - 1)))
                case 10: e.kind = .battery; e.value = Int16(r.int(in: 0...100))
                case 11: e.kind = .network; e.value = Int16(r.int(in: 0...2))
                case 12: e.kind = .lowPower; e.value = Int16(r.int(in: 0...1))
                case 13: e.kind = r.chance(0.5) ? .plugged : .unplugged
                case 14, 15: e.kind = r.chance(0.5) ? .screenOn : .screenOff
                case 16: e.kind = .push; e.app = Int32(r.int(in: 0...(appCount - 1))); e.value = Int16(r.int(in: 0...1))
                case 17: e.kind = .location
                default:  // a burst of simultaneous events
                    e.app = Int32(r.int(in: 0...(appCount - 1)))
                    events.append(e)
                    e.kind = .screenOn; e.app = -1
                }
                events.append(e)
            }
        }
    }

    /// The same log with notifications: before about a third of the opens, one of the same app
    /// from a second to half an hour earlier, and now and then one of another app; each user's
    /// events stay in time order.
    public func withNotifications(seed: UInt64) -> RandomLog {
        var r = SplitMix64(seed: seed, 0x6E_6F_74)
        var copy = self
        var added: [UsageEvent] = []
        for e in events where e.kind == .open && r.chance(0.35) {
            var n = e
            n.kind = .notification
            n.time = Instant(millis: e.time.millis - Int64(r.int(in: 1_000...1_800_000)))
            if r.chance(0.2) { n.app = Int32(r.int(in: 0...Int(appCount - 1))) }
            added.append(n)
        }
        // Users come one after another in the log: each one's events sorted by time, stably.
        let merged = (events + added).enumerated().sorted { a, b in
            a.element.user != b.element.user ? a.element.user < b.element.user
                : a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }
        copy.events = merged.map(\.element)
        return copy
    }

    /// The same log without the events `drop` selects.
    public func removing(where drop: (UsageEvent) -> Bool) -> RandomLog {
        var copy = self
        copy.events.removeAll(where: drop)
        return copy
    }

    /// A scenario with every interval kind and tight budgets, so the rules bite.
    public static func scenario(seed: UInt64, apps: Int) -> Scenario {
        var r = SplitMix64(seed: seed, 0x73_63_65_6E)
        var s = Scenario.default
        s.energyBudgetMicroJ = Int64(r.int(in: 20...400)) * 1_000_000
        s.cellularBudgetBytes = Int64(r.int(in: 100_000...3_000_000))
        s.tick = Int64(r.int(in: 1...30)) * Millis.minute
        // The other background paths, from their own stream so the draws above stay as they were.
        var b = SplitMix64(seed: seed, 0x62_67)
        s.silentPushesPerHour = b.int(in: 0...4)
        s.transferBytesPerSecond = Int64(b.int(in: 10_000...2_000_000))
        for a in 0..<apps {
            var settings = s.defaultApp
            switch r.int(in: 0...3) {
            case 0: settings.interval = .never
            case 1: settings.interval = .minimum
            default: settings.interval = .custom(Int64(r.int(in: 1...180)) * Millis.minute)
            }
            settings.content = r.chance(0.5) ? .window(Int64(r.int(in: 5...120)) * Millis.minute)
                                              : .updates(Int64(r.int(in: 5...180)) * Millis.minute)
            settings.profile.durationMedian = Int64(r.int(in: 500...20_000))
            settings.profile.durationP95 = settings.profile.durationMedian * Int64(r.int(in: 1...6))
            settings.profile.failureRate = r.unit() * 0.3
            settings.profile.bytes = Int64(r.int(in: 1_000...2_000_000))
            if b.chance(0.3) { settings.profile.transferBytes = Int64(b.int(in: 1_000_000...80_000_000)) }
            settings.profile.transferNeedsCharging = b.chance(0.5)
            settings.monitorsLocation = b.chance(0.3)
            if b.chance(0.3) {
                let work = Int64(b.int(in: 10...900)) * Millis.second
                settings.task = TaskProfile(workMedian: work, workP95: work * Int64(b.int(in: 1...3)),
                                            limit: Int64(b.int(in: 60...900)) * Millis.second,
                                            needsCharging: b.chance(0.5), needsNetwork: b.chance(0.5))
            }
            s.apps["app\(a)"] = settings
        }
        return s
    }

    public func replay(_ policy: any FetchPolicy, scenario: Scenario, seed: UInt64, trace: (any TraceSink)? = nil) -> ReplayResult {
        var source = ArraySource(events: events, users: users, apps: apps)
        let replay = makeReplay(policy: policy, scenario: scenario, seed: seed, users: users, apps: apps, trace: trace)
        try! source.run([replay])
        return replay.finish()
    }
}
