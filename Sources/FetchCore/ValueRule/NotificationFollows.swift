/// How often each app's notifications are followed by an open of that app, counted plainly for
/// one user: the feature notifications give a predictor (``CountsPredictor``).
///
/// A notification is followed when an open of its app comes within ``window`` after it, late
/// enough (``StaleOpenLabel/lead``) for a fetch started when it was posted to have finished. A
/// notification counts once its fate is known: at the next open of its app (unfollowed when that
/// comes within the lead), or when the window has passed. The
/// chance is the followed ones over the counted ones plus one, as the counts' chances are (one
/// lucky notification is not certainty). Apps that never post keep nothing, so a log without
/// notifications leaves the table empty and every score as it was.
public struct NotificationFollows: Sendable {
    /// How long after a notification an open of its app counts as following it: the value rule's
    /// horizon, so the chance is of what the rule asks, an open within the horizon.
    public static var window: Int64 { OpenLearner.policyHorizon }
    /// The notifications of one app awaiting their fate at most (older ones count as unfollowed).
    static let pendingLimit = 8

    struct App: Sendable {
        var counted: Int32 = 0
        var followed: Int32 = 0
        /// Times of the notifications whose fate is not known yet, oldest first.
        var pending: [Int64] = []
    }

    /// By app id (dense, as ids are interned from zero); nil for an app that never posted.
    var apps: [App?] = []
    /// The apps that posted at ``lastTime``, the instant of the last notification.
    public private(set) var lastApps: [Int32] = []
    public private(set) var lastTime: Int64 = .min

    public init() {}

    /// Counts one log event of the user: a notification opens a wait, an open of its app ends it.
    public mutating func observe(_ e: UsageEvent) {
        let t = e.time.millis, i = Int(e.app)
        switch e.kind {
        case .notification where e.app >= 0:
            if i >= apps.count { apps.append(contentsOf: repeatElement(nil, count: i + 1 - apps.count)) }
            if apps[i] == nil { apps[i] = App() }
            settle(i, now: t)
            if apps[i]!.pending.count == Self.pendingLimit {
                apps[i]!.pending.removeFirst()
                apps[i]!.counted += 1
            }
            apps[i]!.pending.append(t)
            if t != lastTime { (lastTime, lastApps) = (t, []) }
            if !lastApps.contains(e.app) { lastApps.append(e.app) }
        case .open where i >= 0 && i < apps.count && apps[i] != nil:
            settle(i, now: t)
            // The open ends every wait; one posted within the lead before it counts, unfollowed.
            let followed = apps[i]!.pending.filter { StaleOpenLabel.covers(open: t, moment: $0, window: Self.window) }.count
            apps[i]!.counted += Int32(apps[i]!.pending.count)
            apps[i]!.followed += Int32(followed)
            apps[i]!.pending.removeAll(keepingCapacity: true)
        default:
            break
        }
    }

    /// Counts as unfollowed the notifications of app `i` whose window has passed by `now`.
    private mutating func settle(_ i: Int, now: Int64) {
        let passed = apps[i]!.pending.prefix { now - $0 > Self.window }.count
        guard passed > 0 else { return }
        apps[i]!.counted += Int32(passed)
        apps[i]!.pending.removeFirst(passed)
    }

    /// The chance that a notification of `app` is followed by its open within ``window``: the
    /// followed notifications over the counted ones plus one; 0 for an app that never posted.
    public func followChance(_ app: Int32) -> Double {
        guard app >= 0, Int(app) < apps.count, let a = apps[Int(app)] else { return 0 }
        return Double(a.followed) / Double(a.counted + 1)
    }

    /// Whether `app` posted a notification at `time` (the instant of the last one).
    public func posted(_ app: Int32, at time: Int64) -> Bool {
        time == lastTime && lastApps.contains(app)
    }
}
