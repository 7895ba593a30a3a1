@testable import FetchCore
import FetchTesting
import Testing

/// A plan's wake forecasts, read the cheap way, against the plain readings they replace: the
/// same numbers to the last bit, since a plan must not change with how it is computed.
struct WakeForecastTests {
    /// The forecast of a wake per bin as first written: every piece of the span kept in arrays,
    /// the quantiles found from the last piece back.
    static func everyPiece(counts: [Float], exposure: [Float], share: Double, shift: Int64, from t: Int64, span: Int64,
                           offsetMinutes: Int) -> WakeForecast? {
        guard span > 0 else { return nil }
        var starts: [Int64] = [], none: [Double] = [], rates: [Double] = []
        var elapsed: Int64 = 0, survival = 1.0
        UsageModel.forEachBin(from: t - shift, span: span, offsetMinutes: offsetMinutes) { b, piece in
            let rate = exposure[b] > 0 ? min(1, share * Double(counts[b] / exposure[b])) / Double(UsageModel.binLength) : 0
            starts.append(elapsed)
            none.append(survival)
            rates.append(rate)
            survival *= 1 - rate * Double(piece)
            elapsed += piece
        }
        let chance = 1 - survival
        guard chance > 0 else { return nil }
        func quantile(_ q: Double) -> Int64 {
            let target = 1 - q * chance
            for i in starts.indices.reversed() where none[i] >= target && rates[i] > 0 {
                let within = ((1 - target / none[i]) / rates[i]).rounded(.up)
                return within < Double(span - starts[i]) ? starts[i] + Int64(within) : span
            }
            return 0
        }
        return WakeForecast(chance: chance, early: quantile(0.25), median: quantile(0.5), late: quantile(0.75))
    }

    /// The re-open chance as first written: the habit read whole, both sums in one pass.
    static func reopenInOnePass(_ m: UsageModel, _ app: Int32, at t: Int64, within span: Int64) -> Double {
        guard let h = m.apps[app], h.lastOpen != .min, t >= h.lastOpen else { return 0 }
        let from = Double(t - h.lastOpen) / Double(Millis.minute), to = from + Double(span) / Double(Millis.minute)
        var within = 0.0, later = 0.0, lower = 0.0
        for i in h.gaps.indices {
            let upper = Double(UsageModel.gapBounds[i]), mass = Double(h.gaps[i])
            defer { lower = upper }
            guard mass > 0, upper > from else { continue }
            let width = upper - lower
            later += mass * (upper - max(lower, from)) / width
            within += mass * max(0, min(upper, to) - max(lower, from)) / width
        }
        let k = 0.5 * Double(m.currentWeight(at: t))
        return min(1, (within + 0.02 * k) / (later + k))
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func aWakeForecastIsTheOneEveryPieceGives(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var compared = 0
        for _ in 0..<300 {
            // Bins empty, sparse or busy; exposure sometimes 0, counts sometimes above it.
            let density = rng.int(in: 0...3)
            var counts = [Float](repeating: 0, count: UsageModel.bins), exposure = counts
            for b in counts.indices {
                exposure[b] = rng.int(in: 0...9) == 0 ? 0 : Float(rng.int(in: 1...400)) / 10
                if rng.int(in: 0...3) < density { counts[b] = Float(rng.int(in: 0...500)) / 10 }
            }
            let share = [1, 0.5, 0.03, Double(rng.int(in: 1...100)) / 100][rng.int(in: 0...3)]
            let t = 1_736_000_000_000 + Int64(rng.int(in: 0...(14 * 24 * 60))) * Millis.minute + Int64(rng.int(in: 0...59_999))
            let span = [Int64(0), Millis.minute, 15 * Millis.minute, Millis.day, 3 * Millis.day,
                        Int64(rng.int(in: 1...(2 * 24 * 60 * 60))) * Millis.second][rng.int(in: 0...5)]
            let shift = [Int64(0), UsageModel.prefetchLead][rng.int(in: 0...1)]
            let offset = [-300, 0, 60, 330, 540, 840][rng.int(in: 0...5)]
            let fast = UsageModel.forecast(counts: counts, exposure: exposure, share: share, shift: shift, from: t, span: span,
                                           offsetMinutes: offset)
            let plain = Self.everyPiece(counts: counts, exposure: exposure, share: share, shift: shift, from: t, span: span,
                                        offsetMinutes: offset)
            #expect(fast == plain, "seed \(seed), t \(t), span \(span), offset \(offset)")
            if plain != nil { compared += 1 }
        }
        #expect(compared > 100)  // most draws forecast a wake: the comparison is not of nils
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aReOpenChanceAndItsForecastAreTheOnesAWholeReadingGives(seed: UInt64) {
        let log = RandomLog(seed: seed, users: 1, days: 10, eventsPerDay: 60)
        var m = UsageModel()
        var rng = SplitMix64(seed: seed &+ 100)
        var checked = 0
        for (n, e) in log.events.enumerated() {
            m.observe(e)
            guard n % 25 == 0 else { continue }
            for app in m.apps.keys {
                let t = e.time.millis + Int64(rng.int(in: -60...(3 * 24 * 60))) * Millis.minute
                for span in [Millis.minute, 15 * Millis.minute, Int64(rng.int(in: 1...(48 * 60))) * Millis.minute, Millis.day] {
                    #expect(m.reopenProbability(app, at: t, within: span) == Self.reopenInOnePass(m, app, at: t, within: span))
                    checked += 1
                }
                // The forecast's quantiles by bisection on the whole reading, to the minute.
                let chance = Self.reopenInOnePass(m, app, at: t, within: Millis.day)
                let expected: WakeForecast? = chance > 0 ? {
                    func quantile(_ q: Double) -> Int64 {
                        var low: Int64 = 0, high = Millis.day
                        while high - low > Millis.minute {
                            let mid = low + (high - low) / 2
                            if Self.reopenInOnePass(m, app, at: t, within: mid) >= q * chance { high = mid } else { low = mid }
                        }
                        return high
                    }
                    return WakeForecast(chance: chance, early: quantile(0.25), median: quantile(0.5), late: quantile(0.75))
                }() : nil
                #expect(m.openForecast(app, from: t, span: Millis.day) == expected)
            }
        }
        #expect(checked > 200)
    }
}
