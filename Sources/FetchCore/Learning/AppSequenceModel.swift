/// APPM's predictor (``APPMPolicy``): prediction by partial match over the user's sequence of
/// opened apps, which app comes next and how soon, learned online with no training phase.
///
/// Which: counts of the app that followed each context of the last two apps, of the last app,
/// and of none (every open), blended from the longest context down as PPM does, each order
/// passing on its escape share (method C: distinct followers over followers plus distinct) to
/// the shorter ones, and what is left spread over the apps seen. How soon: per app, a histogram
/// of the time from the cue before its open (the previous open or an unlock, whichever came
/// later) to the open. Memory is bounded: follower tables keep at most `maxFollowers` apps
/// (space-saving), and at most `maxContexts` two-app contexts are kept.
public struct AppSequenceModel: Sendable {
    package static let maxOrder = 2
    package static let maxFollowers = 16
    package static let maxContexts = 2048
    /// Upper edges of the time-till-use bins; the last bin runs to a day.
    static let ttuEdges: [Int64] = [1, 5, 15, 30, 60, 120, 240, 480, 1440].map { $0 * Millis.minute }

    struct App: Sendable {
        var next = FollowerCounts(capacity: AppSequenceModel.maxFollowers)
        var ttu = [Int32](repeating: 0, count: AppSequenceModel.ttuEdges.count)
        var ttuTotal: Int32 = 0
    }

    var order0 = FollowerCounts(capacity: 256)
    var apps: [App?] = []
    var order2: [UInt64: FollowerCounts] = [:]
    package private(set) var appsSeen = 0
    /// The last two apps opened, the latest last; -1 where there is none yet.
    var last: (Int32, Int32) = (-1, -1)
    var lastOpen: Int64 = .min
    var lastUnlock: Int64 = .min
    /// Whether the log has shown a screen event: without any, a session's first open stands in
    /// for its unlock.
    package private(set) var sawScreen = false
    /// The latest open that began a session in a log without screen events (``UsageModel/sessionGap``
    /// of quiet before it), or `Int64.min`.
    package private(set) var sessionStart: Int64 = .min

    public init() {}

    /// Learns from one log event of the user.
    public mutating func observe(_ e: UsageEvent) {
        let t = e.time.millis
        switch e.kind {
        case .screenOn, .screenOff:
            sawScreen = true
            if e.kind == .screenOn { lastUnlock = t }
        case .open where e.app >= 0:
            opened(e.app, at: t)
        default:
            break
        }
    }

    private mutating func opened(_ app: Int32, at t: Int64) {
        if !sawScreen && (lastOpen == .min || t - lastOpen > UsageModel.sessionGap) { sessionStart = t }
        let i = Int(app)
        if i >= apps.count { apps.append(contentsOf: repeatElement(nil, count: i + 1 - apps.count)) }
        if apps[i] == nil {
            apps[i] = App()
            appsSeen += 1
        }
        let cue = max(lastOpen, lastUnlock)
        if cue != .min, t - cue < Millis.day {
            let bin = Self.ttuEdges.firstIndex { t - cue <= $0 } ?? Self.ttuEdges.count - 1
            apps[i]!.ttu[bin] += 1
            apps[i]!.ttuTotal += 1
        }
        order0.add(app)
        if last.1 >= 0 { apps[Int(last.1)]!.next.add(app) }
        if last.0 >= 0 {
            let key = Self.key(last.0, last.1)
            if order2[key] != nil || order2.count < Self.maxContexts {
                order2[key, default: FollowerCounts(capacity: Self.maxFollowers)].add(app)
            }
        }
        last = (last.1, app)
        lastOpen = t
    }

    static func key(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(bitPattern: a)) << 32 | UInt64(UInt32(bitPattern: b)) }

    /// The chance that `app` is the next app opened, blended over the contexts seen.
    package func nextChance(_ app: Int32) -> Double {
        var p = 0.0, weight = 1.0
        // Longest context first; a function rather than an array of the tables, which would
        // allocate at every app asked about.
        func blend(_ table: FollowerCounts?) {
            guard let table, table.total > 0 else { return }
            let n = Double(table.total), d = Double(table.distinct)
            p += weight * Double(table.count(of: app)) / (n + d)
            weight *= d / (n + d)
        }
        blend(last.0 >= 0 ? order2[Self.key(last.0, last.1)] : nil)
        blend(last.1 >= 0 ? apps[Int(last.1)]?.next : nil)
        blend(order0)
        return appsSeen > 0 && Int(app) < apps.count && apps[Int(app)] != nil ? p + weight / Double(appsSeen) : p
    }

    /// The chance that an open of `app` that is to come comes within `span` of `now`, given
    /// that it has not come since the last cue: from its time-till-use histogram, read linearly
    /// within a bin. One when the app has no history of timing (the sequence alone decides).
    package func withinChance(_ app: Int32, now: Int64, span: Int64) -> Double {
        guard Int(app) >= 0, Int(app) < apps.count, let a = apps[Int(app)], a.ttuTotal > 0 else { return 1 }
        let cue = max(lastOpen, lastUnlock)
        let elapsed = cue == .min ? 0 : max(0, now - cue)
        let before = cumulative(a, elapsed), after = cumulative(a, elapsed + span)
        return before >= 1 ? 0 : max(0, min(1, (after - before) / (1 - before)))
    }

    /// The share of `a`'s time-till-use samples at or below `d`.
    private func cumulative(_ a: App, _ d: Int64) -> Double {
        var sum = 0.0, low: Int64 = 0
        for (i, edge) in Self.ttuEdges.enumerated() {
            let c = Double(a.ttu[i])
            if d >= edge {
                sum += c
            } else {
                sum += c * Double(d - low) / Double(edge - low)
                break
            }
            low = edge
        }
        return sum / Double(a.ttuTotal)
    }

    /// Bytes the model holds for this user, counted by element.
    public var bytes: Int {
        MemoryLayout<Self>.size + order0.bytes + apps.count * MemoryLayout<App?>.stride
            + apps.reduce(0) { $0 + ($1.map { $0.next.bytes + $0.ttu.count * 4 } ?? 0) }
            + order2.reduce(0) { $0 + 8 + $1.value.bytes }
    }
}
