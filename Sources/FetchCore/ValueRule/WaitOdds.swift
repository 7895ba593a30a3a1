/// One user's odds that waiting is as good as fetching at a tick: of each app's opens, the share
/// that came after a cheaper moment (an unlock, a plug-in, another app's open: the radio is awake
/// then) early enough for a fetch started there to finish, within the horizon before the open.
///
/// Counted from the user's own log as it goes: per app, and for the user as a whole, which is
/// where an app with few opens starts.
public struct WaitOdds: Sendable {
    /// Per app id: opens, and those a cheaper moment came before.
    var opens: [Int32: (all: Double, covered: Double)] = [:]
    var all = 0.0, covered = 0.0
    /// The last cheaper moments, newest last: when, and the app opened (-1 for a wake).
    var recent: [(time: Int64, app: Int32)] = []
    let horizon: Int64

    public init(horizon: Int64) {
        self.horizon = horizon
    }

    /// Learns from one log event.
    public mutating func observe(_ e: UsageEvent) {
        let t = e.time.millis
        switch e.kind {
        case .open:
            let had = recent.contains { $0.app != e.app && $0.time + StaleOpenLabel.lead <= t && $0.time + horizon >= t }
            opens[e.app, default: (0, 0)].all += 1
            all += 1
            if had {
                opens[e.app, default: (0, 0)].covered += 1
                covered += 1
            }
            remember(t, e.app)
        case .screenOn, .plugged:
            remember(t, -1)
        default:
            break
        }
    }

    mutating func remember(_ t: Int64, _ app: Int32) {
        if recent.count == 4 { recent.removeFirst() }
        recent.append((t, app))
    }

    /// The chance that an open of `app` comes after a cheaper moment: the app's share, with two
    /// opens' worth of the user's share (itself with one of each) added.
    public func odds(_ app: Int32) -> Double {
        let user = (covered + 1) / (all + 2)
        let own = opens[app] ?? (0, 0)
        return (own.covered + 2 * user) / (own.all + 2)
    }
}
