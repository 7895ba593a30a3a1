/// The recent past of one user that the learned model reads beside its habits: the device's
/// state, the last unlock, the opens of the last half hour, and per app its last open and its
/// last open that found content stale (refreshed by opens alone).
public struct UsageContext: Sendable {
    /// How far back the count of recent opens looks.
    package static let recentSpan: Int64 = 30 * Millis.minute
    /// The most recent opens kept: enough to count a burst, bounded whatever the log.
    package static let maxRecent = 64

    package internal(set) var device = DeviceContext()
    package internal(set) var lastUnlock: Int64 = .min
    /// Times of the last opens (of any app), oldest first.
    var recent: [Int64] = []
    /// Per app id: the last open and the last stale one.
    var lastOpen: [Int64] = []
    var lastStaleOpen: [Int64] = []
    /// The content window staleness is judged by.
    public let window: Int64

    public init(window: Int64) { self.window = window }

    public mutating func observe(_ e: UsageEvent) {
        device.apply(e)
        let t = e.time.millis
        switch e.kind {
        case .screenOn: lastUnlock = t
        case .open where e.app >= 0:
            let i = Int(e.app)
            if i >= lastOpen.count {
                lastOpen.append(contentsOf: repeatElement(.min, count: i + 1 - lastOpen.count))
                lastStaleOpen.append(contentsOf: repeatElement(.min, count: i + 1 - lastStaleOpen.count))
            }
            if StaleOpenLabel.stale(open: t, previous: lastOpen[i], window: window) { lastStaleOpen[i] = t }
            lastOpen[i] = t
            recent.append(t)
            if recent.count > Self.maxRecent { recent.removeFirst(recent.count - Self.maxRecent) }
        default: break
        }
    }

    /// The app's last open, `.min` for none.
    package func lastOpen(_ app: Int32) -> Int64 { Int(app) >= 0 && Int(app) < lastOpen.count ? lastOpen[Int(app)] : .min }

    package func lastStaleOpen(_ app: Int32) -> Int64 {
        Int(app) >= 0 && Int(app) < lastStaleOpen.count ? lastStaleOpen[Int(app)] : .min
    }

    /// Opens of any app in the ``recentSpan`` before `t`.
    package func recentOpens(before t: Int64) -> Int {
        var n = 0
        for time in recent.reversed() {
            if t - time > Self.recentSpan { break }
            n += 1
        }
        return n
    }

    /// Bytes held, counted by element.
    public var bytes: Int {
        MemoryLayout<Self>.size + (recent.count + lastOpen.count + lastStaleOpen.count) * MemoryLayout<Int64>.stride
    }
}
