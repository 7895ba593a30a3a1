#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AdaptivePolicy {
    /// Where the chance of an open comes from, by the kind of moment.
    enum Signal {
        /// The sessions that begin at this time of the week, at a screen_on.
        case session
        /// The apps that follow the one opened (or the session it starts), at an open.
        case successor(opened: Int32)
        /// The opens after earlier plug-ins, at a plug-in once there were some.
        case plug
        /// The app's opens at this time of the week (``UsageModel/openProbability(_:from:span:offsetMinutes:smoothed:)``),
        /// at a tick, the policy's timer and the other wakes.
        case timeOfWeek
    }

    static func signal(_ point: DecisionPoint, model: UsageModel) -> Signal {
        switch point {
        case .wake(.screenOn): .session
        case .open(let opened): .successor(opened: opened)
        case .wake(.plugged) where model.plugs > 0: .plug
        case .wake, .tick, .timer, .contentUpdate: .timeOfWeek
        }
    }

    /// The chance of an open of `app` that a fetch at `point` could serve, from the moment's own
    /// signal (before the re-open rhythm sharpens it); nil at an open of the app itself.
    /// `stretch`, when given, is the model's time of week over `[now, now + horizon)`, and `reading`
    /// its sessions at `now` (smoothed), each read once for every app of a decision.
    @inline(__always)
    static func chance(of app: Int32, _ point: DecisionPoint, model: UsageModel, now: Int64, offsetMinutes offset: Int,
                       horizon: Int64, stretch: UsageModel.Stretch? = nil, session reading: UsageModel.SessionReading? = nil) -> Double? {
        switch Self.signal(point, model: model) {
        case .session:
            return model.sessionProbability(app, in: reading ?? model.sessionReading(at: now, offsetMinutes: offset, smoothed: true))
                * model.lateShare(app)
        case .successor(let opened):
            if app == opened { return nil }
            let next = model.successorProbability(app, after: opened)
            guard model.opensSession(at: now) else { return max(next, 0) }
            let session = model.sessionProbability(app, in: reading ?? model.sessionReading(at: now, offsetMinutes: offset, smoothed: true))
            return max(next, session)
        case .plug:
            return model.plugProbability(app)
        case .timeOfWeek:
            let p = stretch.map { model.openProbability(app, over: $0) }
                ?? model.openProbability(app, from: now, span: horizon, offsetMinutes: offset, smoothed: true)
            return p > 0 && model.hasScreenEvents ? p * (1 - model.lateShare(app)) : p
        }
    }

    /// The model's chance of an open of `app` soon after `m` that would find stale content, as
    /// the prediction benchmark scores it: the moment's chance (over the content window where
    /// the policy looks a tick ahead) sharpened by the re-open rhythm, times the share of the
    /// window in which an open would be stale.
    /// `stretch`, when given, is the model's time of week over `[m.time, m.time + window)`, and
    /// `session` its sessions at `m.time` (smoothed), each read once for every app of a moment.
    package static func predictedChance(_ app: Int32, at m: PredictionMoment, model: UsageModel, staleShare: Double,
                                       window: Int64, stretch: UsageModel.Stretch? = nil,
                                       session: UsageModel.SessionReading? = nil) -> Double {
        guard model.sessionTotal > 0 else { return 0 }
        let point: DecisionPoint = switch m.kind {
        case .tick: .tick
        case .unlock: .wake(.screenOn)
        case .open: .open(app: m.opened)
        case .plug: .wake(.plugged)
        }
        let horizon = m.kind == .tick || (m.kind == .plug && model.plugs == 0) ? window : Millis.minute
        let given = m.kind == .tick ? stretch : nil  // over the window, as the tick reads it
        guard let c = chance(of: app, point, model: model, now: m.time, offsetMinutes: m.offsetMinutes, horizon: horizon,
                             stretch: given, session: session), c > 0 else { return 0 }
        let weighed = rhythmPoint(point, model: model, now: m.time)
        let reopen = reopenSpan(weighed, horizon: horizon).map { model.reopenProbability(app, at: m.time, within: $0) }
        return sharpened(c, reopen: reopen ?? 1, weighed) * staleShare
    }

    /// The chance of an open from the moment's own signal (successor, time of week), sharpened
    /// by the app's re-open rhythm over the same stretch: a weighted geometric mean, so that
    /// either one near zero vetoes the fetch. At a wake the session's own signal is kept as is.
    static func sharpened(_ chance: Double, reopen: Double, _ point: DecisionPoint) -> Double {
        switch point {
        case .open, .tick, .timer: exp(0.7 * log(chance) + 0.3 * log(reopen))
        case .wake, .contentUpdate: chance
        }
    }

    /// The point as the re-open rhythm weighs it: an open that stands for an unlock the log did
    /// not record (``UsageModel/opensSession(at:)``) is weighed as that unlock, with no rhythm.
    /// The rhythm asks whether the app comes again soon after its own last open; at a session's
    /// first open that is seldom, and it vetoed the session's apps the unlock would have fetched.
    static func rhythmPoint(_ point: DecisionPoint, model: UsageModel, now: Int64) -> DecisionPoint {
        if case .open = point, model.opensSession(at: now) { return .wake(.screenOn) }
        return point
    }

    /// How far ahead the re-open chance looks: a successor's window at an open, the horizon of a
    /// timed decision; nil at a wake, where it is not asked.
    static func reopenSpan(_ point: DecisionPoint, horizon: Int64) -> Int64? {
        switch point {
        case .open: UsageModel.successorWindow
        case .tick, .timer: horizon
        case .wake, .contentUpdate: nil
        }
    }
}

extension AdaptivePolicy {
    /// The habits' chance as `predict` scores it, the registry's `adaptive-v1` family's model and
    /// the one `ev-habits` runs over: `habits`.
    static let scored = ScoredModel(name: "habits", rank: 0) { app, m, r in
        predictedChance(app, at: m, model: r.model, staleShare: r.staleShare, window: r.window)
    }
}
