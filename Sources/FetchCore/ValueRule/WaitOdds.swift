/// One user's odds that waiting is as good as fetching at a tick: of each app's opens, the share
/// that came after a cheaper moment (an unlock, a plug-in, another app's open: the radio is awake
/// then) early enough for a fetch started there to finish, within the horizon before the open.
///
/// Counted from the user's own log as it goes: per app, and for the user as a whole, which is
/// where an app with few opens starts.
public struct WaitOdds: Sendable {
    /// Per app id (apps are numbered from 0 as the log names them): opens, and those a cheaper
    /// moment came before. An array, not a dictionary: the odds are read for every app weighed at
    /// a tick, and hashing each id showed in profiles of a replay.
    var opens: [(all: Double, covered: Double)] = []
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
            all += 1
            if had { covered += 1 }
            if e.app >= 0 {
                let i = Int(e.app)
                if i >= opens.count { opens.append(contentsOf: repeatElement((all: 0.0, covered: 0.0), count: i + 1 - opens.count)) }
                opens[i].all += 1
                if had { opens[i].covered += 1 }
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
    package func odds(_ app: Int32) -> Double {
        let user = (covered + 1) / (all + 2)
        let own = app >= 0 && Int(app) < opens.count ? opens[Int(app)] : (all: 0.0, covered: 0.0)
        return (own.covered + 2 * user) / (own.all + 2)
    }
}
