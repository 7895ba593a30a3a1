/// One app's re-open rhythm as seen from a moment: the chance it is opened again within a span
/// of that moment (``UsageModel/reopenProbability(_:at:within:)``), read from the model once and
/// then asked of as many spans as needed, as a forecast's quantiles ask of a dozen or more.
struct ReopenRhythm {
    private let gaps: SIMD16<Float>
    /// Minutes from the app's last open to the moment.
    private let from: Double
    /// The prior's weight: half an observation at the moment's weight.
    private let k: Double
    /// The chance within the span the rhythm was read for.
    let chance: Double

    /// The rhythm of an app whose opens came `gaps` apart, `elapsed` after its last open, with
    /// observations now weighing `weight`; and its chance within `span`.
    init(gaps: SIMD16<Float>, since elapsed: Int64, weight: Float, span: Int64) {
        let from = Double(elapsed) / Double(Millis.minute), k = 0.5 * Double(weight)
        self.gaps = gaps
        self.from = from
        self.k = k
        chance = Self.probability(gaps, from: from, k: k, within: span)
    }

    /// The chance of an open within `span` of the moment: the share of the gaps that lasted at
    /// least until the moment which ended within the span, each bucket's gaps spread evenly over
    /// it, with a little prior toward none.
    func probability(within span: Int64) -> Double {
        Self.probability(gaps, from: from, k: k, within: span)
    }

    @inline(__always)
    private static func probability(_ gaps: SIMD16<Float>, from: Double, k: Double, within span: Int64) -> Double {
        let to = from + Double(span) / Double(Millis.minute)
        var within = 0.0, later = 0.0, lower = 0.0
        // Lanes read through memory: a vector read lane by lane in registers is stored whole to
        // the stack for each lane, and this runs for every app the value rule weighs.
        withUnsafeBytes(of: gaps) { gaps in
            withUnsafeBytes(of: UsageModel.gapBounds) { bounds in
                for i in 0..<16 {
                    let upper = Double(bounds.load(fromByteOffset: 4 * i, as: Float.self))
                    let mass = Double(gaps.load(fromByteOffset: 4 * i, as: Float.self))
                    defer { lower = upper }
                    guard mass > 0, upper > from else { continue }
                    let width = upper - lower
                    later += mass * (upper - max(lower, from)) / width
                    within += mass * max(0, min(upper, to) - max(lower, from)) / width
                }
            }
        }
        return min(1, (within + 0.02 * k) / (later + k))
    }
}
