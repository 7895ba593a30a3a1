/// When the next wake of one kind (a screen_on, a plug-in, an open of some app) is likely to
/// come within a span: its chance, and the times by which a quarter, a half and three quarters
/// of that chance have come (so "usually within `median`", and likeliest between `early` and
/// `late`). Times are milliseconds after the span's start.
package struct WakeForecast: Sendable, Equatable {
    package var chance: Double
    package var early: Int64
    package var median: Int64
    package var late: Int64
}

extension UsageModel {
    /// The next screen_on within `(t, t + span]`, from the user's own sessions per quarter-hour
    /// of the week, bin by bin (sessions per observed quarter-hour, times the share of sessions
    /// that began with screen_on); nil for a user without screen events.
    package func screenOnForecast(from t: Int64, span: Int64, offsetMinutes: Int) -> WakeForecast? {
        guard hasScreenEvents, sessionTotal > 0 else { return nil }
        // Sessions are binned at their start less the prefetch lead (see ``startSession``).
        return Self.forecast(counts: sessions, exposure: exposure, share: Double(screenSessions / sessionTotal),
                             shift: Self.prefetchLead, from: t, span: span, offsetMinutes: offsetMinutes)
    }

    /// The next plug-in within `(t, t + span]`, from the user's plug-ins per quarter-hour of the
    /// week; nil for a user whose log shows none.
    package func plugForecast(from t: Int64, span: Int64, offsetMinutes: Int) -> WakeForecast? {
        guard plugs > 0 else { return nil }
        return Self.forecast(counts: plugBins, exposure: exposure, share: 1, shift: 0, from: t, span: span,
                             offsetMinutes: offsetMinutes)
    }

    /// The next open of `app` within `(t, t + span]`, from its re-open rhythm
    /// (``reopenProbability(_:at:within:)``); nil before its first open or when none is likely.
    package func openForecast(_ app: Int32, from t: Int64, span: Int64) -> WakeForecast? {
        guard let rhythm = reopenRhythm(app, at: t, span: span) else { return nil }
        let chance = rhythm.chance
        guard chance > 0 else { return nil }
        // The chance grows with the span: the quantiles by bisection, to the minute.
        func quantile(_ q: Double) -> Int64 {
            var low: Int64 = 0, high = span
            while high - low > Millis.minute {
                let mid = low + (high - low) / 2
                if rhythm.probability(within: mid) >= q * chance { high = mid } else { low = mid }
            }
            return high
        }
        return WakeForecast(chance: chance, early: quantile(0.25), median: quantile(0.5), late: quantile(0.75))
    }

    /// A wake that comes in each quarter-hour with the chance `share × counts[bin] / exposure[bin]`
    /// (the share of observed days with one there, as ``openProbability(_:from:span:offsetMinutes:smoothed:)``
    /// reads opens), spread evenly over the bin; bins read at the time less `shift`.
    static func forecast(counts: [Float], exposure: [Float], share: Double, shift: Int64, from t: Int64, span: Int64,
                         offsetMinutes: Int) -> WakeForecast? {
        guard span > 0 else { return nil }
        // The chance per millisecond within bin `b`.
        func rate(_ b: Int) -> Double {
            exposure[b] > 0 ? min(1, share * Double(counts[b] / exposure[b])) / Double(Self.binLength) : 0
        }
        // The pieces of the span within one bin each, twice: once for the chance of a wake in the
        // span, then for where a quarter, a half and three quarters of it have come. Both passes
        // multiply the same factors in the same order, so the second sees the first's numbers.
        var survival = 1.0
        Self.forEachBin(from: t - shift, span: span, offsetMinutes: offsetMinutes) { b, piece in
            survival *= 1 - rate(b) * Double(piece)
        }
        let chance = 1 - survival
        guard chance > 0 else { return nil }
        // Per quantile, the last piece that starts with at least its share of the chance still to
        // come and has a rate: where it starts, the chance that none came before it, its rate.
        let targets = SIMD3<Double>(1 - 0.25 * chance, 1 - 0.5 * chance, 1 - 0.75 * chance)
        var last: [(start: Int64, none: Double, rate: Double)?] = [nil, nil, nil]
        var elapsed: Int64 = 0
        survival = 1
        Self.forEachBin(from: t - shift, span: span, offsetMinutes: offsetMinutes) { b, piece in
            let r = rate(b)
            if r > 0 {
                for q in 0..<3 where survival >= targets[q] { last[q] = (elapsed, survival, r) }
            }
            survival *= 1 - r * Double(piece)
            elapsed += piece
        }
        func quantile(_ q: Int) -> Int64 {
            guard let (start, none, rate) = last[q] else { return 0 }
            // A rate near zero puts the moment far past the span: bounded before it is an Int64.
            let within = ((1 - targets[q] / none) / rate).rounded(.up)
            return within < Double(span - start) ? start + Int64(within) : span
        }
        return WakeForecast(chance: chance, early: quantile(0), median: quantile(1), late: quantile(2))
    }
}
