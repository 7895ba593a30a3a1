extension UsageModel {
    /// What reading the time of week over a stretch of time asks of the user rather than of an
    /// app: each quarter-hour bin the stretch covers, how much of it, the quarter-hours observed
    /// there, the share of them in which a session started, and whether any app has opens there.
    /// A decision that weighs every app reads it once (``stretch(from:span:offsetMinutes:smoothed:)``),
    /// then each app's chance over it (``openProbability(_:over:)``).
    package struct Stretch: Sendable {
        struct Bin: Sendable {
            var bin: Int
            /// How much of the bin the stretch covers.
            var piece: Int64
            /// Quarter-hours observed in the bin (as read: smoothed or not).
            var days: Float
            /// The share of them in which a session started, at most 1 (0 when not smoothed: unused).
            var sessionRate: Float
            /// Whether some app has opens in the bin or the one before: where none has, the
            /// smoothed reading lends no app a chance.
            var active: Bool
        }

        let smoothed: Bool
        /// How much the prior weighs against a bin's own days (0 when not smoothed).
        let priorWeight: Float
        /// Whether some bin the stretch covers, observed or not, is one where an app has opens
        /// (or the bin before is): when not, every app's chance over it is 0, smoothed or not.
        package internal(set) var anyActive = false
        /// The first three bins inline (a stretch of a quarter-hour, the default tick, covers at most
        /// two, one of half an hour, the learned model's window, three), the rest in an array: a
        /// decision at every tick reads one, for every app where the learned model weighs, and
        /// should not allocate.
        private var first: Bin?
        private var second: Bin?
        private var third: Bin?
        private var rest: [Bin] = []

        init(smoothed: Bool, priorWeight: Float) {
            self.smoothed = smoothed
            self.priorWeight = priorWeight
        }

        mutating func append(_ bin: Bin) {
            if first == nil {
                first = bin
            } else if second == nil {
                second = bin
            } else if third == nil {
                third = bin
            } else {
                rest.append(bin)
            }
        }

        @inline(__always)
        func forEach(_ body: (Bin) -> Void) {
            if let first { body(first) }
            if let second { body(second) }
            if let third { body(third) }
            for bin in rest { body(bin) }
        }
    }

    /// The user's side of the time-of-week reading of `[t, t + span)` (``Stretch``); `smoothed`,
    /// as the adaptive policy reads it (``openProbability(_:from:span:offsetMinutes:smoothed:)``).
    package func stretch(from t: Int64, span: Int64, offsetMinutes: Int, smoothed: Bool) -> Stretch {
        var s = Stretch(smoothed: smoothed, priorWeight: smoothed ? Self.priorDays * currentWeight(at: t) : 0)
        Self.forEachBin(from: t, span: span, offsetMinutes: offsetMinutes) { b, piece in
            let active = binsWithOpens.contains(b) || binsWithOpens.contains(Self.before(b))
            s.anyActive = s.anyActive || active
            let days = Self.count(exposure, b, smoothed: smoothed)
            guard days > 0 else { return }  // a bin never observed has no chance to give
            // The seen reading has no prior, and the learned model's features ask it for every app.
            let rate = smoothed ? min(1, Self.count(sessions, b, smoothed: true) / days) : 0
            s.append(Stretch.Bin(bin: b, piece: piece, days: days, sessionRate: rate, active: active))
        }
        return s
    }

    /// The chance of a session-first open of `app` within the stretch `s` was read over
    /// (``openProbability(_:from:span:offsetMinutes:smoothed:)``, which says how).
    @inline(__always)
    package func openProbability(_ app: Int32, over s: Stretch) -> Double {
        guard let h = apps[app] else { return 0 }
        var none = 1.0
        s.forEach { x in
            // Most apps have no open in or just before most bins, and most bins of the night have
            // no open of any app: skipping those is exact (their factor is 1), and spares the
            // divisions a decision at every tick would wait on.
            let opens = Self.count(h.opens, x.bin, smoothed: s.smoothed)
            guard opens > 0 || (s.smoothed && x.active) else { return }
            // The app's share of the sessions of this kind of day: a weekday habit lends nothing
            // to weekends.
            let kind = x.bin < Self.binsPerDay ? 0 : 1
            let share = s.smoothed && sessionsByDay[kind] > 0 ? h.opensByDay[kind] / sessionsByDay[kind] : 0
            let p = min(1, Double((opens + s.priorWeight * (share * x.sessionRate)) / (x.days + s.priorWeight)))
            none *= 1 - p * Double(x.piece) / Double(Self.binLength)
        }
        return 1 - none
    }
}
