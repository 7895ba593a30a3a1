#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The learned model's inputs for one app at one moment: causal (only what came before the
/// moment), each scaled to about -5…1, in a fixed-size vector so that no example allocates.
public enum OpenFeatures {
    public typealias Vector = SIMD32<Float>

    /// The signals, each a group of features that leaving it out removes together.
    public enum Group: Int, CaseIterable, Sendable {
        case kind, timeOfDay, timeOfWeek, successor, unlock, session, reopen, staleHistory, burst, device, dayType, popularity

        public var name: String {
            switch self {
            case .kind: "kind"
            case .timeOfDay: "time-of-day counts"
            case .timeOfWeek: "time of week (decayed)"
            case .successor: "successor"
            case .unlock: "unlock"
            case .session: "session"
            case .reopen: "re-open rhythm"
            case .staleHistory: "last stale open"
            case .burst: "recent opens"
            case .device: "charging, battery"
            case .dayType: "day type"
            case .popularity: "app popularity"
            }
        }

        /// The features of the group, by index into ``Vector``.
        var indices: [Int] {
            switch self {
            case .kind: [0, 1, 2, 3]
            case .timeOfDay: [4, 5, 25]
            case .timeOfWeek: [6, 26]
            case .successor: [7, 8, 22, 23]
            case .unlock: [9, 10, 24]
            case .session: [11, 27]
            case .reopen: [12, 13, 14, 28, 29]
            case .staleHistory: [15]
            case .burst: [16]
            case .device: [17, 18]
            case .dayType: [19]
            case .popularity: [20, 21]
            }
        }
    }

    /// 1 for the features kept, 0 for those of the groups left out.
    package static func mask(without: Set<Group>) -> Vector {
        var m = Vector(repeating: 0)
        for g in Group.allCases where !without.contains(g) {
            for i in g.indices { m[i] = 1 }
        }
        return m
    }

    /// The log of a chance, 0.01 added so that none is finite.
    @inline(__always)
    static func logChance(_ p: Double) -> Float { p > 0 ? Float(log(min(1, p) + 0.01)) : noChance }

    /// ``logChance(_:)`` of none, the most common value by far: computed once.
    static let noChance = Float(log(0.01))

    @inline(__always)
    static func logMinutes(_ since: Int64, _ now: Int64) -> Float {
        since == .min ? 1.2 : Float(log1p(Double(max(0, now - since)) / Double(Millis.minute)) / 10)
    }

    /// The features of `app` at `m`, from the user's habits, counts and recent past.
    package static func make(_ app: Int32, at m: PredictionMoment, model: UsageModel, counts: OpenCounts, context: UsageContext)
        -> Vector {
        var x = Vector(repeating: 0)
        // Lanes written through memory: a vector written lane by lane in registers is stored and
        // reloaded whole after each lane, a stall per lane on every app weighed.
        withUnsafeMutableBytes(of: &x) { raw in
            let x = raw.bindMemory(to: Float.self)
            let t = m.time, w = context.window, offset = m.offsetMinutes
            x[m.kind.rawValue] = 1
            x[4] = logChance(counts.slotChance(app, from: t, span: w, offsetMinutes: offset))
            x[5] = logChance(counts.slotChance(app, from: t - w, span: 3 * w, offsetMinutes: offset))
            x[6] = logChance(model.openProbability(app, from: t, span: w, offsetMinutes: offset))
            var counted = 0.0, weighted = 0.0
            for before in counts.recentOpens where before.app != app && t - before.time <= OpenCounts.successorWindow {
                counted = max(counted, counts.successorChance(app, after: before.app))
                weighted = max(weighted, model.successorProbability(app, after: before.app))
            }
            x[7] = logChance(counted)
            x[8] = logChance(weighted)
            let unlocked = context.lastUnlock != .min && t - context.lastUnlock <= OpenCounts.followWindow
            x[9] = logChance(unlocked ? counts.unlockChance(app) : 0)
            x[10] = logMinutes(context.lastUnlock, t)
            x[11] = logChance(model.sessionTotal > 0 ? model.sessionProbability(app, at: t, offsetMinutes: offset) : 0)
            x[12] = logChance(model.reopenProbability(app, at: t, within: w))
            let last = context.lastOpen(app)
            x[13] = last == .min ? 1 : Float(min(1, max(0, Double(t - last) / Double(w))))
            x[14] = logMinutes(last, t)
            x[15] = logMinutes(context.lastStaleOpen(app), t)
            x[16] = Float(log1p(Double(context.recentOpens(before: t))) / 3)
            x[17] = context.device.charging ? 1 : 0
            x[18] = Float(context.device.batteryLevel) / 100
            x[19] = LocalTime.weekday(ofDay: LocalTime.day(t, offsetMinutes: offset)) >= 5 ? 1 : 0
            let opens = Double(counts[app]?.opens ?? 0), all = Double(counts.totalOpens)
            x[20] = Float(log(all > 0 ? opens / all + 0.001 : 0.001) / 7)
            x[21] = Float(log1p(opens / Double(max(1, counts.days))) / 3)
            // The same signals again at the kind of moment where each speaks loudest: one weight
            // vector, but what a count is worth differs between a tick and an open.
            let open: Float = m.kind == .open ? 1 : 0, tick: Float = m.kind == .tick ? 1 : 0, unlock: Float = m.kind == .unlock ? 1 : 0
            x[22] = open * x[7]
            x[23] = open * x[8]
            x[24] = unlock * x[9]
            x[25] = tick * x[4]
            x[26] = tick * x[6]
            x[27] = unlock * x[11]
            x[28] = tick * x[12]
            x[29] = open * x[12]
        }
        return x
    }
}
