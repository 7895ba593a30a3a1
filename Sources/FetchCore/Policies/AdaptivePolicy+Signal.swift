extension AdaptivePolicy {
    /// Where the chance of an open comes from, by the kind of moment.
    enum Signal {
        /// The sessions that begin at this time of the week, at a screen_on.
        case session
        /// The apps that follow the one opened (or the session it starts), at an open.
        case successor(opened: Int32)
        /// The opens after earlier plug-ins, at a plug-in once there were some.
        case plug
        /// The app's opens at this time of the week (``UsageModel/openProbability(_:from:span:offsetMinutes:)``),
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
    @inline(__always)
    static func chance(of app: Int32, _ point: DecisionPoint, model: UsageModel, now: Int64, offsetMinutes offset: Int,
                       horizon: Int64) -> Double? {
        switch Self.signal(point, model: model) {
        case .session:
            return model.sessionProbability(app, at: now, offsetMinutes: offset) * model.lateShare(app)
        case .successor(let opened):
            if app == opened { return nil }
            let next = model.successorProbability(app, after: opened)
            let session = model.sessionStart == now && !model.sessionByScreen
                ? model.sessionProbability(app, at: now, offsetMinutes: offset) : 0
            return max(next, session)
        case .plug:
            return model.plugProbability(app)
        case .timeOfWeek:
            let p = model.openProbability(app, from: now, span: horizon, offsetMinutes: offset)
            return p > 0 && model.hasScreenEvents ? p * (1 - model.lateShare(app)) : p
        }
    }

    /// The model's chance of an open of `app` soon after `m` that would find stale content, as
    /// the prediction benchmark scores it: the moment's chance (over the content window where
    /// the policy looks a tick ahead) sharpened by the re-open rhythm, times the share of the
    /// window in which an open would be stale.
    public static func predictedChance(_ app: Int32, at m: PredictionMoment, model: UsageModel, staleShare: Double,
                                       window: Int64) -> Double {
        guard model.sessionTotal > 0 else { return 0 }
        let point: DecisionPoint = switch m.kind {
        case .tick: .tick
        case .unlock: .wake(.screenOn)
        case .open: .open(app: m.opened)
        case .plug: .wake(.plugged)
        }
        let horizon = m.kind == .tick || (m.kind == .plug && model.plugs == 0) ? window : Millis.minute
        guard let c = chance(of: app, point, model: model, now: m.time, offsetMinutes: m.offsetMinutes, horizon: horizon),
              c > 0 else { return 0 }
        let reopen = reopenSpan(point, horizon: horizon).map { model.reopenProbability(app, at: m.time, within: $0) }
        return sharpened(c, reopen: reopen ?? 1, point) * staleShare
    }
}
