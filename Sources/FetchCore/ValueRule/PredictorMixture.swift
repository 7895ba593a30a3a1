#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One user's weighing of several predictors by what each one's decisions would have bought for
/// this user so far.
///
/// At every app the value rule weighs, each member's chance (calibrated for the user as the rule
/// calibrates its own) is held against the bar the rule set there; once the answer is known, each
/// member that would have fetched is credited the fetch's net value at the user's price (a
/// rescue's worth less the energy's). The members' scores are mixed by weights that follow their
/// credits at AdaHedge's rate, which the user's own log sets: the mixture follows the leader while
/// the members' decisions agree, and spreads as far as their disagreements have cost.
///
/// The members are judged by decisions, not by how well they foretell every moment: a loss summed
/// over every app at every moment (log-loss, squared error) is made far below any bar, and chose
/// predictors that decide worse; the members' calibrated chances mixed, rather than their scores,
/// decided worse too (Benchmarks/HISTORY.md, "A mixture of predictors per user").
package struct PredictorMixture: Sendable {
    /// How many members a mixture weighs at most.
    package static let capacity = 4

    struct Example: AwaitedExample {
        var time: Int64
        var end: Int64
        var app: Int32
        var settled: Bool
        var cells: SIMD4<Int16>
        var scores: SIMD4<Float>
        var chances: SIMD4<Float>
        /// The chance the rule needed for a fetch, and a rescue's worth there per unit of chance;
        /// an infinite bar where the rule did not say (nothing is credited).
        var bar: Float = .infinity
        var worth: Float = 0
    }

    package let members: Int
    /// What the answers have taught: each member's calibration, credit and weight.
    var weighing: Weighing
    var queue: AnswerQueue<Example>

    package init(members: Int, longest: Int64) {
        precondition(members >= 1 && members <= Self.capacity)
        self.members = members
        weighing = Weighing(members: members)
        queue = AnswerQueue(longest: longest)
    }

    package var longest: Int64 { queue.longest }
    /// Each member's credit so far: the net value of the fetches it would have asked for.
    package var credit: SIMD4<Double> { weighing.credit }
    /// The members' weights, from their credits at ``rate``.
    package var weights: SIMD4<Double> { weighing.weights }
    /// AdaHedge's rate: the logarithm of the members' count over the mixability gaps so far;
    /// infinite (the leader alone, ties shared) until a gap opens.
    package var rate: Double { weighing.rate }
    package var gaps: Double { weighing.gaps }

    /// The members' `scores` mixed by their weights.
    @inline(__always)
    package func mixed(_ scores: SIMD4<Double>) -> Double {
        min(1, (weighing.weights * scores).sum())
    }

    /// The mixed score of the members' `scores` of `app` at `time`, keeping each member's calibrated
    /// chance as an example to learn from once its answer is known (an open within `horizon`).
    /// Examples come in time order.
    package mutating func mix(_ scores: SIMD4<Double>, kind: PredictionMoment.Kind, app: Int32, at time: Int64,
                              horizon: Int64) -> Double {
        var x = Example(time: time, end: time + min(horizon, longest), app: app, settled: false,
                        cells: .zero, scores: .zero, chances: .zero)
        for k in 0..<members {
            let (p, c) = weighing.chance(k, scores[k], kind: kind)
            (x.cells[k], x.scores[k], x.chances[k]) = (Int16(c), Float(min(1, scores[k])), Float(p))
        }
        queue.append(x)
        return mixed(scores)
    }

    /// What the rule made of the example kept last: the chance it needed for a fetch there, and a
    /// rescue's worth per unit of chance.
    package mutating func weighed(bar: Double, worth: Double) {
        guard bar.isFinite, worth > 0 else { return }
        queue.changeLast { x in
            x.bar = Float(bar)
            x.worth = Float(worth)
        }
    }

    /// Learns from one log event: examples whose horizon has closed are noes, an open answers its
    /// app's (as the rule's calibration answers its own).
    package mutating func observe(_ e: UsageEvent) {
        let before = weighing.credit
        queue.observe(e, into: &weighing)
        if weighing.credit != before { weighing.reweigh() }
    }

    /// Bytes held for the user, counted by element.
    package var bytes: Int { (weighing.expected.count + weighing.hits.count) * 8 + queue.bytes }
}

extension PredictorMixture {
    /// The members' calibrations (as ``ChanceCalibration``'s, a set of cells per member), credits
    /// and weights, learned from the answered examples.
    struct Weighing: ExampleLearner {
        let members: Int
        /// Per member and cell (kind × range of score): answered examples' scores summed, and the yeses.
        var expected: [Double]
        var hits: [Double]
        var credit: SIMD4<Double> = .zero
        var weights: SIMD4<Double> = .zero
        var rate = Double.infinity
        var gaps = 0.0

        init(members: Int) {
            self.members = members
            let cells = PredictionMoment.Kind.allCases.count * ChanceCalibration.bins * members
            expected = Array(repeating: 0, count: cells)
            hits = Array(repeating: 0, count: cells)
            reweigh()
        }

        /// The calibrated chance of member `k`'s `score` at a moment of `kind`, and its cell.
        @inline(__always)
        func chance(_ k: Int, _ score: Double, kind: PredictionMoment.Kind) -> (chance: Double, cell: Int) {
            let c = k * PredictionMoment.Kind.allCases.count * ChanceCalibration.bins + ChanceCalibration.cell(score, kind: kind)
            return (ChanceCalibration.calibrated(score, hits: hits[c], expected: expected[c]), c)
        }

        mutating func answer(_ x: Example, hit: Bool) {
            var gains = SIMD4<Double>.zero
            for k in 0..<members {
                let c = Int(x.cells[k])
                expected[c] += Double(x.scores[k])
                if hit { hits[c] += 1 }
                if x.chances[k] >= x.bar { gains[k] = Double(x.worth) * ((hit ? 1 : 0) - Double(x.bar)) }
            }
            guard gains != .zero else { return }
            // AdaHedge (de Rooij, van Erven, Grünwald and Koolen, 2014): the rate is ln K over the
            // mixability gaps so far, so the weights follow the leader while the members' gains agree
            // and spread as far as their disagreements have been costly; no rate is chosen by hand.
            let before = weights
            var mixLoss = 0.0
            for k in 0..<members { mixLoss -= before[k] * gains[k] }
            var gap = 0.0
            if rate.isInfinite {
                // At an infinite rate the mixture's loss is the least of the weighed members'.
                gap = max(0, mixLoss + leaderGain(before, gains))
            } else {
                var z = 0.0
                for k in 0..<members where before[k] > 0 { z += before[k] * exp(rate * gains[k]) }
                gap = max(0, mixLoss + log(z) / rate)
            }
            credit += gains
            gaps += gap
            if gaps > 0 { rate = log(Double(max(2, members))) / gaps }
        }

        /// The best gain among the members weighed.
        func leaderGain(_ w: SIMD4<Double>, _ gains: SIMD4<Double>) -> Double {
            var best = -Double.infinity
            for k in 0..<members where w[k] > 0 { best = max(best, gains[k]) }
            return best
        }

        /// The weights from the credits at the rate: `exp(rate · credit)`, normalized.
        mutating func reweigh() {
            var best = -Double.infinity
            for k in 0..<members { best = max(best, credit[k]) }
            var w = SIMD4<Double>.zero, total = 0.0
            for k in 0..<members {
                w[k] = rate.isInfinite ? (credit[k] == best ? 1 : 0) : exp(rate * (credit[k] - best))
                total += w[k]
            }
            weights = w / total
        }
    }
}
