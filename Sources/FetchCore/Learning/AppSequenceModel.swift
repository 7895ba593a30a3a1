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

    package private(set) var order0 = FollowerCounts(capacity: 256)
    var apps: [App?] = []
    package private(set) var order2: [UInt64: FollowerCounts] = [:]
    /// `order0`'s count of each app by id, the follower tables of the last app and of the last two
    /// as stored, and their blend: `nextChance` is asked of every app at every moment, and
    /// looking each up there (a search of up to 256 entries, a hash, a copy of the table) and
    /// working out the blend was most of its time.
    var order0Counts: [Int32] = []
    var context1: FollowerCounts?
    var context2: FollowerCounts?
    var blend = Blend()
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
        // The tables the contexts share are let go first, so that the counts below change them in place.
        (context1, context2) = (nil, nil)
        if i >= apps.count {
            apps.append(contentsOf: repeatElement(nil, count: i + 1 - apps.count))
            order0Counts.append(contentsOf: repeatElement(0, count: i + 1 - order0Counts.count))
        }
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
        if let evicted = order0.add(app) { order0Counts[Int(evicted)] = 0 }
        order0Counts[i] = order0.count(of: app)
        if last.1 >= 0 { apps[Int(last.1)]!.next.add(app) }
        if last.0 >= 0 {
            let key = Self.key(last.0, last.1)
            if order2[key] != nil || order2.count < Self.maxContexts {
                order2[key, default: FollowerCounts(capacity: Self.maxFollowers)].add(app)
            }
        }
        last = (last.1, app)
        lastOpen = t
        context1 = apps[i]!.next
        context2 = last.0 >= 0 ? order2[Self.key(last.0, last.1)] : nil
        blend = blendOfTables()
    }

    static func key(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(bitPattern: a)) << 32 | UInt64(UInt32(bitPattern: b)) }

    /// The chance that `app` is the next app opened, blended over the contexts seen.
    package func nextChance(_ app: Int32) -> Double {
        // Longest context first, each table's count weighed by its share (`blend`, the same for
        // every app asked); a count of zero adds nothing, so its division is not made.
        var p = 0.0
        if let table = context2 {
            let c = table.count(of: app)
            if c > 0 { p += blend.weight.x * Double(c) / blend.denominator.x }
        }
        if let table = context1 {
            let c = table.count(of: app)
            if c > 0 { p += blend.weight.y * Double(c) / blend.denominator.y }
        }
        if app >= 0 && Int(app) < order0Counts.count && order0Counts[Int(app)] > 0 {
            p += blend.weight.z * Double(order0Counts[Int(app)]) / blend.denominator.z
        }
        return appsSeen > 0 && app >= 0 && Int(app) < apps.count && apps[Int(app)] != nil ? p + blend.rest : p
    }

    /// What each table's count is weighed by in ``nextChance(_:)``, as PPM blends them: the
    /// weight the longer contexts leave it over its count plus distinct followers (x the last two
    /// apps', y the last app's, z all opens'), and the weight left after all three spread over the
    /// apps seen. The same for every app, so worked out at each open.
    struct Blend: Sendable {
        var weight = SIMD3<Double>(repeating: 0)
        var denominator = SIMD3<Double>(repeating: 1)
        var rest = 0.0
    }

    /// The blend of the tables as they stand.
    func blendOfTables() -> Blend {
        var b = Blend(), weight = 1.0
        for (k, table) in [context2, context1, order0].enumerated() {
            guard let table, table.total > 0 else { continue }
            let n = Double(table.total), d = Double(table.distinct)
            (b.weight[k], b.denominator[k]) = (weight, n + d)
            weight *= d / (n + d)
        }
        b.rest = appsSeen > 0 ? weight / Double(appsSeen) : 0
        return b
    }

    /// The chance that an open of `app` that is to come comes within `span` of `now`, given
    /// that it has not come since the last cue: from its time-till-use histogram, read linearly
    /// within a bin. One when the app has no history of timing (the sequence alone decides).
    package func withinChance(_ app: Int32, now: Int64, span: Int64) -> Double {
        guard app >= 0, Int(app) < apps.count, let ttu = apps[Int(app)]?.ttu, let total = apps[Int(app)]?.ttuTotal, total > 0 else {
            return 1
        }
        let cue = max(lastOpen, lastUnlock)
        let elapsed = cue == .min ? 0 : max(0, now - cue)
        let before = Self.cumulative(ttu, elapsed, total: total), after = Self.cumulative(ttu, elapsed + span, total: total)
        return before >= 1 ? 0 : max(0, min(1, (after - before) / (1 - before)))
    }

    /// The share of `total` time-till-use samples, counted by bin in `ttu`, at or below `d`.
    private static func cumulative(_ ttu: [Int32], _ d: Int64, total: Int32) -> Double {
        var sum = 0.0, low: Int64 = 0
        for (i, edge) in ttuEdges.enumerated() {
            let c = Double(ttu[i])
            if d >= edge {
                sum += c
            } else {
                sum += c * Double(d - low) / Double(edge - low)
                break
            }
            low = edge
        }
        return sum / Double(total)
    }

    /// Bytes the model holds for this user, counted by element.
    public var bytes: Int {
        MemoryLayout<Self>.size + order0.bytes + order0Counts.count * 4 + apps.count * MemoryLayout<App?>.stride
            + apps.reduce(0) { $0 + ($1.map { $0.next.bytes + $0.ttu.count * 4 } ?? 0) }
            + order2.reduce(0) { $0 + 8 + $1.value.bytes }
    }
}
