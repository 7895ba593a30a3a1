/// One user's online calibration of a predictor's scores: per kind of moment and range of score,
/// how often an open of the app came within the horizon, learned forward only.
///
/// Each score the rule weighs becomes an example; its answer is the log as it goes on (an open
/// of the app between ``StaleOpenLabel/lead`` and the horizon after the moment is a yes; an open
/// sooner, or none by the horizon's end, a no), and it counts only once known. Until a range has
/// seen examples, its chance is the score itself: the calibrated chance is the range's observed
/// rate against the predictor's, with ``priorWeight`` opens as expected added.
package struct ChanceCalibration: Sendable {
    struct Example: AwaitedExample {
        var time: Int64
        var end: Int64
        var app: Int32
        var cell: Int16
        var settled: Bool
        var score: Float
    }

    /// Per cell (kind × range): examples answered, the yeses among them, and the sum of their
    /// scores (what the predictor expected of them).
    struct Cells: ExampleLearner {
        var seen = [Double](repeating: 0, count: PredictionMoment.Kind.allCases.count * bins)
        var hits = [Double](repeating: 0, count: PredictionMoment.Kind.allCases.count * bins)
        var expected = [Double](repeating: 0, count: PredictionMoment.Kind.allCases.count * bins)

        mutating func answer(_ x: Example, hit: Bool) {
            let c = Int(x.cell)
            seen[c] += 1
            expected[c] += Double(x.score)
            if hit { hits[c] += 1 }
        }
    }

    /// Ranges of score: halvings from 1 down, the first holding everything below.
    package static let bins = 12
    /// Opens each range starts with as the predictor expected them: until its examples outweigh
    /// them, a range believes the scores.
    package static let priorWeight = 2.0
    var cells = Cells()
    var queue: AnswerQueue<Example>

    public init(longest: Int64 = 30 * Millis.minute) {
        queue = AnswerQueue(longest: longest)
    }

    /// The longest horizon an example may have: how long examples wait at most.
    package var longest: Int64 { queue.longest }
    /// Per cell (kind × range): examples answered, and the yeses among them.
    public var seen: [Double] { cells.seen }
    package var hits: [Double] { cells.hits }

    /// The cell of `score` at a moment of `kind`.
    @inline(__always)
    package static func cell(_ score: Double, kind: PredictionMoment.Kind) -> Int {
        // [0.5, 1] is the last range, [0.25, 0.5) the one before, and so on; the first holds the
        // rest. A positive normal number's exponent is floor(log2), read without a logarithm.
        let range = score >= 0.5 ? bins - 1 : score < 0x1p-12 ? 0 : bins + Int(score.exponent)
        return kind.rawValue * bins + range
    }

    /// `score` calibrated by its cell's answers: the score times what the cell's opens came to
    /// (`hits`) against what the predictor expected of them (`expected`), each with
    /// ``priorWeight`` opens as expected added.
    @inline(__always)
    package static func calibrated(_ score: Double, hits: Double, expected: Double) -> Double {
        min(1, score * (hits + priorWeight) / (expected + priorWeight))
    }

    /// The calibrated chance of `score` at a moment of `kind`: the score times what its range's
    /// opens came to against what the predictor expected of them, so that scores keep their order
    /// within a range (a predictor's finer distinctions are its worth) while the range's level is
    /// the user's own.
    @inline(__always)
    package func chance(_ score: Double, kind: PredictionMoment.Kind) -> Double {
        let c = Self.cell(score, kind: kind)
        return Self.calibrated(score, hits: cells.hits[c], expected: cells.expected[c])
    }

    /// Keeps `score` of `app` at `time`, of an open within `horizon`, as an example to learn from
    /// once its answer is known. Examples come in time order; a horizon past ``longest`` is cut to it.
    public mutating func record(_ score: Double, kind: PredictionMoment.Kind, app: Int32, at time: Int64, horizon: Int64) {
        queue.append(Example(time: time, end: time + min(horizon, longest), app: app,
                             cell: Int16(Self.cell(score, kind: kind)), settled: false, score: Float(min(1, score))))
    }

    /// Learns from one log event: examples whose horizon has closed are noes, an open answers its
    /// app's.
    public mutating func observe(_ e: UsageEvent) {
        queue.observe(e, into: &cells)
    }

    /// Bytes held for the user, counted by element.
    public var bytes: Int { (cells.seen.count + cells.hits.count + cells.expected.count) * 8 + queue.bytes }
}
