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
}
