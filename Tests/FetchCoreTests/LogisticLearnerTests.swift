@testable import FetchCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The learner's arithmetic, four lanes at a time through memory, against the plain formulas
/// lane by lane.
struct LogisticLearnerTests {
    static func randomVector(_ rng: inout SplitMix64, scale: Float) -> OpenFeatures.Vector {
        var v = OpenFeatures.Vector(repeating: 0)
        for i in 0..<OpenFeatures.Vector.scalarCount { v[i] = Float.random(in: -scale...scale, using: &rng) }
        return v
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func theDotProductIsTheSumOfTheLanesProducts(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<200 {
            let a = Self.randomVector(&rng, scale: 5), b = Self.randomVector(&rng, scale: 5)
            var plain = 0.0
            for i in 0..<OpenFeatures.Vector.scalarCount { plain += Double(a[i]) * Double(b[i]) }
            #expect(abs(Double(LogisticLearner.dot(a, b)) - plain) <= 1e-4 * max(1, abs(plain)))
            let p = LogisticLearner.product(a, b)
            for i in 0..<OpenFeatures.Vector.scalarCount { #expect(p[i] == a[i] * b[i]) }
        }
    }

    @Test(arguments: [UInt64(5), 6, 7])
    func aStepIsTheAdaGradStepOfEachLanePulledTowardThePrior(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var learner = LogisticLearner(window: OpenLearner.defaultWindow)
        for step in 0..<300 {
            let x = Self.randomVector(&rng, scale: 4.6)
            let label = step % 7 == 0
            var weights = learner.weights, squares = learner.squares
            let e = Float(learner.probability(x) - (label ? 1 : 0))
            for i in 0..<OpenFeatures.Vector.scalarCount {
                let g = e * x[i]
                squares[i] += g * g
                weights[i] -= LogisticLearner.userRate * g / squares[i].squareRoot()
                    + LogisticLearner.pull * (weights[i] - LogisticLearner.prior[i])
            }
            learner.learn(x, label: label)
            #expect(learner.weights == weights)
            #expect(learner.squares == squares)
        }
        #expect(learner.learned == 300)
    }

    /// A weighted step is the step of the gradient times the weight; one no in four is picked,
    /// the same ones in every run.
    @Test(arguments: [UInt64(8), 9])
    func oneNoInFourIsLearnedWeighedFourTimes(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var weighted = LogisticLearner(window: OpenLearner.defaultWindow)
        for _ in 0..<100 {
            let x = Self.randomVector(&rng, scale: 4.6)
            var squares = weighted.squares, weights = weighted.weights
            let e = 4 * Float(weighted.probability(x))
            for i in 0..<OpenFeatures.Vector.scalarCount {
                let g = e * x[i]
                squares[i] += g * g
                weights[i] -= LogisticLearner.userRate * g / squares[i].squareRoot()
                    + LogisticLearner.pull * (weights[i] - LogisticLearner.prior[i])
            }
            weighted.learn(x, label: false, weight: 4)
            #expect(weighted.weights == weights && weighted.squares == squares)
        }
        var picked = 0
        for app in 0..<40 {
            for minute in 0..<500 {
                let time = 1_736_000_000_000 + Int64(minute) * Millis.minute
                let w = LogisticLearner.negativeWeight(app: app, time: time)
                #expect(w == nil || w == 4)
                #expect(w == LogisticLearner.negativeWeight(app: app, time: time))
                if w != nil { picked += 1 }
            }
        }
        #expect((4_500...5_500).contains(picked), "\(picked) of 20,000 picked")
    }
}
