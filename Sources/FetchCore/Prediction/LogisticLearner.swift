#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The logistic regression of ``OpenLearner``, apart from the habits it reads, so that several
/// (each leaving some features out) can learn beside one set of habits.
public struct LogisticLearner: Sendable {
    struct Example: Sendable {
        var time: Int64
        /// Where the example's window ends: an open later than this is not its answer.
        var end: Int64
        var x: OpenFeatures.Vector
    }

    /// Examples waiting for their label, at most this many (the oldest are dropped unlearned).
    package static let maxPending = 4096
    /// The step size of a user's own learning, from the population's prior …
    public static let userRate: Float = 0.01
    /// … and of fitting that prior over a population.
    package static let populationRate: Float = 0.3
    static let pull: Float = 0.00001

    /// The content window: the longest an example waits for its label.
    let window: Int64
    public internal(set) var weights: OpenFeatures.Vector
    /// Examples labelled, and steps taken from them (a no learned from only in a sample).
    package internal(set) var settled = 0
    public internal(set) var learned = 0
    package internal(set) var dropped = 0
    var squares = OpenFeatures.Vector(repeating: 1)
    /// Per app id, its examples waiting, oldest first.
    var pending: [[Example]] = []
    var pendingCount = 0
    var nextSweep: Int64 = .min
    let rate: Float
    let mask: OpenFeatures.Vector
    /// Whether every feature is kept (the policy's learner, and `learned` in the bench).
    let masksNothing: Bool
    let prior: OpenFeatures.Vector

    package init(window: Int64, without: Set<OpenFeatures.Group> = [], prior: OpenFeatures.Vector = LogisticLearner.prior,
                rate: Float = LogisticLearner.userRate) {
        self.window = window
        self.rate = rate
        mask = OpenFeatures.mask(without: without)
        masksNothing = without.isEmpty
        self.prior = Self.product(prior, mask)
        weights = self.prior
    }

    /// Moves the clock to `t`: every so often, the examples whose window has closed are noes.
    @inline(__always)
    package mutating func advance(to t: Int64) {
        if t >= nextSweep { sweep(at: t) }
    }

    /// `app` was opened at `t`, finding content refreshed by opens alone stale or not.
    public mutating func opened(_ app: Int32, at t: Int64, stale: Bool) {
        if Int(app) >= 0, Int(app) < pending.count, !pending[Int(app)].isEmpty { settle(app: app, openedAt: t, stale: stale) }
    }

    /// The chance for features `x`.
    @inline(__always)
    package func probability(_ x: OpenFeatures.Vector) -> Double {
        1 / (1 + exp(-max(-30, min(30, Double(Self.dot(weights, x))))))
    }

    /// `a × b` lane by lane, four at a time through memory (``dot(_:_:)`` says why).
    static func product(_ a: OpenFeatures.Vector, _ b: OpenFeatures.Vector) -> OpenFeatures.Vector {
        var p = a
        withUnsafeMutableBytes(of: &p) { p in
            withUnsafeBytes(of: b) { b in
                for k in 0..<8 {
                    p.storeBytes(of: p.load(fromByteOffset: 16 * k, as: SIMD4<Float>.self) * b.load(fromByteOffset: 16 * k, as: SIMD4<Float>.self),
                                 toByteOffset: 16 * k, as: SIMD4<Float>.self)
                }
            }
        }
        return p
    }

    /// The sum of `a × b` over the lanes, four at a time through memory: arithmetic on a whole
    /// `SIMD32<Float>` runs lane by lane, each lane reloading the vector, and this runs for every
    /// app weighed at every decision and every example learned.
    @inline(__always)
    static func dot(_ a: OpenFeatures.Vector, _ b: OpenFeatures.Vector) -> Float {
        withUnsafeBytes(of: a) { a in
            withUnsafeBytes(of: b) { b in
                var s = SIMD4<Float>()
                for k in 0..<8 {
                    s += a.load(fromByteOffset: 16 * k, as: SIMD4<Float>.self) * b.load(fromByteOffset: 16 * k, as: SIMD4<Float>.self)
                }
                return (s.x + s.y) + (s.z + s.w)
            }
        }
    }

    /// Keeps `x`, asked about `app` at `time`, to learn from once its label is known.
    public mutating func record(_ x: OpenFeatures.Vector, app: Int32, at time: Int64, horizon: Int64? = nil) {
        guard app >= 0 else { return }
        let i = Int(app)
        if i >= pending.count { pending.append(contentsOf: repeatElement([], count: i + 1 - pending.count)) }
        if pendingCount >= Self.maxPending { sweep(at: time, dropOldest: true) }
        pending[i].append(Example(time: time, end: time + min(window, horizon ?? window), x: masksNothing ? x : Self.product(x, mask)))
        pendingCount += 1
    }

    /// The app was opened at `t`: examples whose window closed before it are noes, those whose
    /// window it falls in are labelled by whether it was stale (only the first open in a window
    /// can be).
    mutating func settle(app: Int32, openedAt t: Int64, stale: Bool) {
        let i = Int(app)
        expire(i, before: t)
        learn(i) { StaleOpenLabel.covers(open: t, moment: $0.time, window: $0.end - $0.time) ? stale : nil }
    }

    /// Labels every example whose window has closed by `t` as a no (or, when too many wait,
    /// drops the oldest half of each app's unlearned).
    mutating func sweep(at t: Int64, dropOldest: Bool = false) {
        nextSweep = t + window / 2
        for i in pending.indices where !pending[i].isEmpty {
            expire(i, before: t)
            if dropOldest {
                let drop = pending[i].count / 2
                dropped += drop
                pending[i].removeFirst(drop)
                pendingCount -= drop
            }
        }
    }

    /// Learns each example of app `i` whose window closed before `t` as a no (windows of
    /// several lengths: one may close before an older one).
    mutating func expire(_ i: Int, before t: Int64) {
        learn(i) { $0.end < t ? false : nil }
    }

    /// Learns, in order, each example of app `i` that `label` answers, and keeps the rest.
    mutating func learn(_ i: Int, _ label: (Example) -> Bool?) {
        var kept = 0
        for ex in pending[i] {
            if let y = label(ex) {
                settled += 1
                if y {
                    learn(ex.x, label: true)
                } else if let weight = Self.negativeWeight(app: i, time: ex.time) {
                    learn(ex.x, label: false, weight: weight)
                }
            } else {
                pending[i][kept] = ex
                kept += 1
            }
        }
        pendingCount -= pending[i].count - kept
        pending[i].removeLast(pending[i].count - kept)
    }

    /// Bytes held, the examples waiting included, counted by element.
    public var bytes: Int {
        MemoryLayout<Self>.size + pending.count * MemoryLayout<[Example]>.stride
            + pending.reduce(0) { $0 + $1.count * MemoryLayout<Example>.stride }
    }

    /// The same weights with nothing pending, for the next user of a population.
    package func carried() -> LogisticLearner {
        var next = self
        next.pending = []
        next.pendingCount = 0
        next.nextSweep = .min
        return next
    }

    /// The weights as Swift source, for shipping a fitted prior.
    package var weightsSource: String {
        (0..<OpenFeatures.Vector.scalarCount).map { ResultText.fixed(Double(weights[$0]), 4) }.joined(separator: ", ")
    }

    /// One in this many noes is learned from, weighed as that many, so that the gradient stays
    /// the same in expectation: the noes outnumber the yeses about thirty to one, and each costs
    /// a step. Every yes is learned from.
    package static let negativeSample: UInt64 = 4

    /// The weight of a no about app `app` at `time`: ``negativeSample`` for the one in that many
    /// a hash of the two picks, nil for the others (the pick is deterministic, the same in any run).
    @inline(__always)
    package static func negativeWeight(app: Int, time: Int64) -> Float? {
        var z = UInt64(bitPattern: time) &+ UInt64(truncatingIfNeeded: app) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return z % negativeSample == 0 ? Float(negativeSample) : nil
    }

    /// One AdaGrad step of the log-loss, pulled toward the prior; `weight` counts the example
    /// as that many.
    mutating func learn(_ x: OpenFeatures.Vector, label: Bool, weight: Float = 1) {
        let e = SIMD4(repeating: weight * Float(probability(x) - (label ? 1 : 0)))
        let rate = SIMD4(repeating: rate), pull = SIMD4(repeating: Self.pull)
        // Four lanes at a time through memory (``dot(_:_:)`` says why).
        withUnsafeMutableBytes(of: &weights) { weights in
            withUnsafeMutableBytes(of: &squares) { squares in
                withUnsafeBytes(of: x) { x in
                    withUnsafeBytes(of: prior) { prior in
                        for offset in stride(from: 0, to: 128, by: 16) {
                            let g = e * x.load(fromByteOffset: offset, as: SIMD4<Float>.self)
                            let s = squares.load(fromByteOffset: offset, as: SIMD4<Float>.self) + g * g
                            let w = weights.load(fromByteOffset: offset, as: SIMD4<Float>.self)
                            let p = prior.load(fromByteOffset: offset, as: SIMD4<Float>.self)
                            squares.storeBytes(of: s, toByteOffset: offset, as: SIMD4<Float>.self)
                            weights.storeBytes(of: w - (rate * g / s.squareRoot() + pull * (w - p)), toByteOffset: offset, as: SIMD4<Float>.self)
                        }
                    }
                }
            }
        }
        learned += 1
    }
}

extension LogisticLearner {
    /// Where fitting a prior starts: a small weight on each chance, the stale share, a low bias.
    public static let start: OpenFeatures.Vector = {
        var w = OpenFeatures.Vector(repeating: 0)
        for k in 0..<4 { w[k] = -1 }
        for i in 4...12 { w[i] = 0.3 }
        w[13] = 1
        return w
    }()

    /// Where every user starts: the weights fitted over a generated population, shipped as
    /// data (docs/policies.md, "The learned model", gives the command that fits them).
    public static let prior: OpenFeatures.Vector = [
        -0.8308, -0.6956, -0.9547, -1.1477, 0.2882, 0.3409, 0.2639, 0.0156,
        0.0138, 0.0817, 0.4634, 0.2012, 0.3469, 1.4579, 0.3746, 0.3661,
        -0.0357, -0.3289, 0.3543, 0.0939, -0.1704, 0.3142, -0.0153, -0.0181,
        -0.1123, 0.0206, 0.0215, -0.0320, 0.0642, 0.0528, 0.0000, 0.0000,
    ]

    /// Where every user of the `learned` policy starts: fitted the same way, for the policy's
    /// question (an open within ``OpenLearner/policyHorizon``).
    package static let policyPrior: OpenFeatures.Vector = [
        -1.0296, -0.6199, -1.1173, -1.1120, 0.2424, 0.2874, 0.1821, 0.0679,
        0.0676, 0.1944, 0.2812, 0.3009, 0.2862, 1.2932, 0.2941, 0.2875,
        -0.0946, -0.4215, 0.2343, 0.0526, -0.1700, 0.1375, 0.0575, 0.0563,
        -0.1750, 0.0521, 0.0141, -0.0613, 0.0798, 0.0342, 0.0000, 0.0000,
    ]
}
