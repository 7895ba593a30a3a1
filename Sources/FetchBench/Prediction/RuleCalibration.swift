import FetchCore

/// One model's chances for one user, calibrated as the value rule calibrates a predictor's score
/// before it decides (`ChanceCalibration`): per kind of moment and range of score, what the range's
/// examples came to against what the model expected of them, with the same prior.
///
/// `predict` shows these beside the raw scores: the rule decides on this chance, not on the score.
/// Forward only, as the rule learns: an example is answered once its window has closed, by the
/// benchmark's own label (a stale open of the app within the window).
package struct RuleCalibration {
    private var hits = [Double](repeating: 0, count: PredictionMoment.Kind.allCases.count * ChanceCalibration.bins)
    private var expected = [Double](repeating: 0, count: PredictionMoment.Kind.allCases.count * ChanceCalibration.bins)
    /// Examples waiting for their window to close, in time order (every window is as long).
    private var pending: [(end: Int64, cell: Int, score: Double, label: Bool)] = []
    private var head = 0

    package init() {}

    /// The chance the rule decides on for `score` at a moment of `kind` at `time`, from the
    /// examples answered by then; keeps this one, answered by `label` when `window` has passed.
    package mutating func chance(_ score: Double, kind: PredictionMoment.Kind, label: Bool, at time: Int64, window: Int64) -> Double {
        while head < pending.count && pending[head].end <= time {
            let x = pending[head]
            expected[x.cell] += x.score
            if x.label { hits[x.cell] += 1 }
            head += 1
        }
        if head > 4096 && head * 2 > pending.count {
            pending.removeFirst(head)
            head = 0
        }
        guard score > 0 else { return 0 }
        let cell = ChanceCalibration.cell(score, kind: kind)
        pending.append((time + window, cell, min(1, score), label))
        return ChanceCalibration.calibrated(score, hits: hits[cell], expected: expected[cell])
    }
}
