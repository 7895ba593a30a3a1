@testable import FetchBench
@testable import FetchCore
import FetchTesting
import Testing

/// Notifications as a feature: how often an app's notifications are followed by its open
/// (``NotificationFollows``), read by the default's predictor at a notification of the app.
struct NotificationFollowsTests {
    static let minute = Millis.minute

    func event(_ kind: EventKind, app: Int32, at minutes: Double) -> UsageEvent {
        UsageEvent(time: Instant(millis: 1_736_150_400_000 + Int64(minutes * 60_000)), user: 0, app: app, kind: kind, value: 0,
                   offsetMinutes: 0)
    }

    @Test func aNotificationIsFollowedOnlyByAnOpenOfItsAppWithinTheHorizonAndAfterTheLead() {
        var f = NotificationFollows()
        let window = Double(NotificationFollows.window) / 60_000
        // Followed: its app opened two minutes later.
        f.observe(event(.notification, app: 1, at: 0))
        f.observe(event(.open, app: 2, at: 1))
        f.observe(event(.open, app: 1, at: 2))
        #expect(f.followChance(1) == 1.0 / 2 && f.followChance(2) == 0)
        // Answered at once: the open comes within the lead, before a fetch could have finished.
        f.observe(event(.notification, app: 1, at: 100))
        f.observe(event(.open, app: 1, at: 100 + 2.0 / 60))
        #expect(f.followChance(1) == 1.0 / 3)
        // Unanswered: the window passes, counted at the app's next notification.
        f.observe(event(.notification, app: 1, at: 200))
        #expect(f.followChance(1) == 1.0 / 3)
        f.observe(event(.notification, app: 1, at: 200 + window + 1))
        #expect(f.followChance(1) == 1.0 / 4 && f.posted(1, at: event(.open, app: 1, at: 200 + window + 1).time.millis))
        // An open just past the window follows nothing.
        f.observe(event(.open, app: 1, at: 200 + 2 * window + 2))
        #expect(f.followChance(1) == 1.0 / 5 && !f.posted(1, at: event(.open, app: 1, at: 200).time.millis))
    }

    /// On random logs with notifications: followed never exceeds counted, chances stay below one,
    /// and every notification is either counted or awaiting its fate.
    @Test(arguments: [UInt64(1), 7, 19, 42])
    func followedNeverExceedsCountedAndEveryNotificationIsCountedOnce(seed: UInt64) {
        let log = RandomLog(seed: seed, users: 1, days: 4).withNotifications(seed: seed)
        var f = NotificationFollows()
        for e in log.events where e.user == 0 {
            f.observe(e)
            for case let a? in f.apps {
                #expect(a.followed >= 0 && a.followed <= a.counted && a.pending.count <= NotificationFollows.pendingLimit)
            }
        }
        let posted = log.events.filter { $0.user == 0 && $0.kind == .notification }.count
        let counted = f.apps.compactMap { $0 }.reduce(0) { $0 + Int($1.counted) + $1.pending.count }
        #expect(posted > 0 && counted == posted)
        for app in 0..<log.appCount { #expect(f.followChance(app) >= 0 && f.followChance(app) < 1) }
    }

    /// Without notifications the default's predictor scores every app at every moment as the
    /// counting baseline counts it: the bytes of every log without them stay as they were.
    @Test(arguments: [UInt64(2), 5, 11])
    func withoutNotificationsTheCountsPredictorScoresAsTheCountingBaseline(seed: UInt64) {
        let log = RandomLog(seed: seed, users: 1, days: 3)
        let p = CountsPredictor()
        var state = p.makeState(), counts = OpenCounts()
        for e in log.events where e.user == 0 {
            p.observe(e, state: &state)
            counts.observe(e)
            for kind in PredictionMoment.Kind.allCases {
                let m = PredictionMoment(kind: kind, time: e.time.millis, offsetMinutes: Int(e.offsetMinutes), opened: kind == .open ? e.app : -1)
                for app in 0..<log.appCount {
                    #expect(p.score(app, at: m, horizon: 8 * Self.minute, state: &state)
                        == CountsPolicy.chance(of: app, at: m, counts: counts, window: 8 * Self.minute))
                }
            }
        }
    }

    /// A user who answers one app's notifications within minutes, at a new time each day: the
    /// default fetches it at its notifications (the radio awake), and rescues those opens, where
    /// on the same log without notifications it has no such moment.
    @Test func theDefaultFetchesAnAppAtItsNotificationsWhenTheyAreAnswered() {
        var s = Scenario.default
        s.defaultApp.profile.failureRate = 0
        func log(notifications: Bool) -> LogBuilder {
            var log = LogBuilder()
            log.add(.network, value: Network.wifi.rawValue, at: "06:00")
            for day in 0..<21 {
                let minute = 8 * 60 + (day * 97) % 600
                let clock = { (m: Int) in "\(m / 60):\(m % 60)" }
                if notifications { log.add(.notification, app: "chat", at: clock(minute), plusDays: day) }
                log.open("chat", at: clock(minute + 3), plusDays: day)
                log.open("news", at: "07:30", plusDays: day)
            }
            return log
        }
        let with = log(notifications: true), without = log(notifications: false)
        let trace = RecordingTrace()
        let noticed = with.replay(ValueRuleFamilies.defaultPolicy, scenario: s, trace: trace)
        let silent = without.replay(ValueRuleFamilies.defaultPolicy, scenario: s)
        let chat = with.apps.id("chat")
        let posted = Set(with.events.filter { $0.kind == .notification }.map(\.time.millis))
        let atNotifications = trace.rows.filter { $0.refusal == nil && $0.app == chat && posted.contains($0.start) }
        #expect(atNotifications.count >= 10, "\(atNotifications.count) of \(posted.count)")
        #expect(noticed.total.rescuedOpens > silent.total.rescuedOpens + 5, "\(noticed.total.rescuedOpens) \(silent.total.rescuedOpens)")
    }

    /// `generate --notifications` adds notifications and nothing else: the other lines are the
    /// log without them, byte for byte; some opens answer a notification of their app posted
    /// 1–15 minutes before, and some notifications go unanswered.
    @Test(arguments: [UInt64(3), 8])
    func generatedNotificationsLeaveTheRestOfTheLogAsItWas(seed: UInt64) throws {
        let plain = SyntheticLog.csv(users: 4, days: 5, seed: seed, pushes: true)
        let noticed = SyntheticLog.csv(users: 4, days: 5, seed: seed, pushes: true, notifications: true)
        #expect(noticed == SyntheticLog.csv(users: 4, days: 5, seed: seed, pushes: true, notifications: true))
        let lines = noticed.split(separator: "\n")
        #expect(lines.filter { !$0.hasSuffix(",notification,") } == plain.split(separator: "\n"))
        let source = try ArraySource(csv: noticed)
        var f = NotificationFollows(), posted = 0
        for e in source.events where e.user == 0 {
            f.observe(e)
            if e.kind == .notification { posted += 1 }
        }
        let apps = f.apps.compactMap { $0 }
        let followed = apps.reduce(0) { $0 + Int($1.followed) }, counted = apps.reduce(0) { $0 + Int($1.counted) }
        #expect(posted > 20 && followed > 0 && followed < counted, "\(posted) \(followed) \(counted)")
    }
}
