#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One user's online calibration of a predictor's scores: per kind of moment and range of score,
/// how often an open of the app came within the horizon, learned forward only.
///
/// Each score the rule weighs becomes an example; its answer is the log as it goes on (an open
/// of the app between ``StaleOpenLabel/lead`` and the horizon after the moment is a yes; an open
/// sooner, or none by the horizon's end, a no), and it counts only once known. Until a range has
/// seen examples, its chance is the score itself: the calibrated chance is the range's observed
/// rate against the predictor's, with ``priorWeight`` opens as expected added.
package struct ChanceCalibration: Sendable {
    struct Example: Sendable {
        var time: Int64
        /// Where its horizon ends.
        var end: Int64
        var app: Int32
        var cell: Int16
        var settled: Bool
        var score: Float
    }

    /// Ranges of score: halvings from 1 down, the first holding everything below.
    package static let bins = 12
    /// Opens each range starts with as the predictor expected them: until its examples outweigh
    /// them, a range believes the scores.
    package static let priorWeight = 2.0
    /// The longest horizon an example may have: how long examples wait at most.
    package let longest: Int64
    /// Examples waiting for their answer, at most this many (the oldest are dropped unlearned).
    package static let maxPending = 8192

    /// Per cell (kind × range): examples answered, and the yeses among them.
    public private(set) var seen = [Double](repeating: 0, count: PredictionMoment.Kind.allCases.count * bins)
    package private(set) var hits = [Double](repeating: 0, count: PredictionMoment.Kind.allCases.count * bins)
    /// Per cell, the sum of the answered examples' scores: what the predictor expected of them.
    package private(set) var expected = [Double](repeating: 0, count: PredictionMoment.Kind.allCases.count * bins)
    /// Waiting examples by time, from `head` on.
    var pending: [Example] = []
    var head = 0

    public init(longest: Int64 = 30 * Millis.minute) {
        self.longest = longest
    }

    /// The cell of `score` at a moment of `kind`.
    @inline(__always)
    static func cell(_ score: Double, kind: PredictionMoment.Kind) -> Int {
        // [0.5, 1] is the last range, [0.25, 0.5) the one before, and so on; the first holds the
        // rest. A positive normal number's exponent is floor(log2), read without a logarithm.
        let range = score >= 0.5 ? bins - 1 : score < 0x1p-12 ? 0 : bins + Int(score.exponent)
        return kind.rawValue * bins + range
    }

    /// The calibrated chance of `score` at a moment of `kind`: the score times what its range's
    /// opens came to against what the predictor expected of them, so that scores keep their order
    /// within a range (a predictor's finer distinctions are its worth) while the range's level is
    /// the user's own.
    @inline(__always)
    package func chance(_ score: Double, kind: PredictionMoment.Kind) -> Double {
        let c = Self.cell(score, kind: kind)
        return min(1, score * (hits[c] + Self.priorWeight) / (expected[c] + Self.priorWeight))
    }

    /// Keeps `score` of `app` at `time`, of an open within `horizon`, as an example to learn from
    /// once its answer is known. Examples come in time order; a horizon past ``longest`` is cut to it.
    public mutating func record(_ score: Double, kind: PredictionMoment.Kind, app: Int32, at time: Int64, horizon: Int64) {
        if pending.count - head >= Self.maxPending { head += 1 }
        pending.append(Example(time: time, end: time + min(horizon, longest), app: app,
                               cell: Int16(Self.cell(score, kind: kind)), settled: false,
                               score: Float(min(1, score))))
    }

    /// Learns from one log event: examples whose horizon has closed are noes, an open answers its
    /// app's.
    public mutating func observe(_ e: UsageEvent) {
        let t = e.time.millis
        // An example whose horizon has closed is a no, counted once it is the oldest waiting (its
        // answer cannot change by then: an open answers only examples whose horizon it is in).
        while head < pending.count && pending[head].time + longest < t {
            let x = pending[head]
            if !x.settled { answer(x, hit: false) }
            head += 1
        }
        // Answered examples are let go once they are most of the array: a plan copies the state,
        // and with it every example still held.
        if head > 64 && head * 2 > pending.count {
            pending.removeFirst(head)
            head = 0
        }
        guard e.kind == .open else { return }
        var i = pending.count - 1
        while i >= head {
            if pending[i].app == e.app && !pending[i].settled {
                pending[i].settled = true
                answer(pending[i], hit: pending[i].time + StaleOpenLabel.lead <= t && t <= pending[i].end)
            }
            i -= 1
        }
    }

    mutating func answer(_ x: Example, hit: Bool) {
        let c = Int(x.cell)
        seen[c] += 1
        expected[c] += Double(x.score)
        if hit { hits[c] += 1 }
    }

    /// Bytes held for the user, counted by element.
    public var bytes: Int { (seen.count + hits.count + expected.count) * 8 + (pending.count - head) * MemoryLayout<Example>.stride }
}
