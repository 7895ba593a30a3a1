@testable import FetchCore
import FetchTesting
import Testing

/// `ev-mix`'s mixture: each member credited what the fetches it would have asked for were worth
/// at the rule's bar, and weighed by its credit at AdaHedge's rate.
struct PredictorMixtureTests {
    static let minute = Millis.minute
    static let horizon = 8 * Millis.minute

    func open(_ app: Int32, at t: Int64) -> UsageEvent {
        UsageEvent(time: Instant(millis: t), user: 0, app: app, kind: .open)
    }

    /// Every invariant of a mixture's weights, checked in code.
    func checkInvariants(_ m: PredictorMixture) {
        #expect(abs(m.weights.sum() - 1) < 1e-9)
        for k in 0..<PredictorMixture.capacity {
            #expect(m.weights[k] >= 0 && m.weights[k] <= 1 + 1e-12)
            if k >= m.members { #expect(m.weights[k] == 0 && m.credit[k] == 0) }
        }
        #expect(m.gaps >= 0)
        #expect(m.rate > 0)
        #expect(m.rate.isInfinite == (m.gaps == 0))
    }

    /// Member 0 scores the app that will be opened high and the other low; member 1 cannot tell
    /// them apart. Calibrated, member 1's chance of each is a half, over the bar: it would fetch
    /// both, and pay for the one not opened, where member 0 fetches only the one that is. The
    /// weight goes to member 0.
    @Test(arguments: [UInt64(1), 2, 3])
    func theMixtureFollowsTheMemberWhoseFetchesWouldHavePaidMost(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var m = PredictorMixture(members: 2, longest: Self.horizon)
        var t: Int64 = 0
        for _ in 0..<300 {
            let opened = Int32(Int.random(in: 0..<2, using: &rng)), other = 1 - opened
            _ = m.mix(SIMD4(0.6, 0.3, 0, 0), kind: .tick, app: opened, at: t, horizon: Self.horizon)
            m.weighed(bar: 0.4, worth: 1)
            _ = m.mix(SIMD4(0.02, 0.3, 0, 0), kind: .tick, app: other, at: t, horizon: Self.horizon)
            m.weighed(bar: 0.4, worth: 1)
            m.observe(open(opened, at: t + 3 * Self.minute))
            checkInvariants(m)
            t += 30 * Self.minute
        }
        #expect(m.credit[0] > m.credit[1] + 50)
        #expect(m.weights[0] > 0.99)
        // The mixed score is then member 0's.
        #expect(abs(m.mixed(SIMD4(0.4, 0.1, 0, 0)) - 0.4) < 0.01)
    }

    /// Members that would have decided alike are credited alike: no gap opens, the rate stays
    /// infinite and the weights even.
    @Test func membersThatDecideAlikeKeepEvenWeights() {
        var m = PredictorMixture(members: 3, longest: Self.horizon)
        var t: Int64 = 0
        for i in 0..<200 {
            _ = m.mix(SIMD4(0.3, 0.3, 0.3, 0), kind: .unlock, app: 1, at: t, horizon: Self.horizon)
            m.weighed(bar: 0.2, worth: 0.5)
            if i % 3 == 0 { m.observe(open(1, at: t + 2 * Self.minute)) }
            t += 20 * Self.minute
        }
        m.observe(open(9, at: t + Self.horizon + 1))
        #expect(m.credit[0] != 0 && m.credit[0] == m.credit[1] && m.credit[1] == m.credit[2])
        #expect(m.rate.isInfinite && m.gaps == 0)
        #expect(m.weights[0] == 1.0 / 3 && m.weights[1] == 1.0 / 3 && m.weights[2] == 1.0 / 3)
    }

    /// A member whose chances stay below the bar would have fetched nothing, and is credited
    /// nothing, whatever the answers; so is every member where the rule set no bar (a plan's
    /// question).
    @Test func aMemberBelowTheBarOrAnExampleWithoutOneIsCreditedNothing() {
        var m = PredictorMixture(members: 2, longest: Self.horizon)
        var t: Int64 = 0
        for i in 0..<100 {
            _ = m.mix(SIMD4(0.5, 0.001, 0, 0), kind: .tick, app: 1, at: t, horizon: Self.horizon)
            m.weighed(bar: 0.05, worth: 1)
            _ = m.mix(SIMD4(0.5, 0.5, 0, 0), kind: .tick, app: 2, at: t, horizon: Self.horizon)
            if i % 2 == 0 { m.observe(open(1, at: t + Self.minute)) }
            m.observe(open(2, at: t + Self.minute))
            t += 30 * Self.minute
        }
        m.observe(open(9, at: t + Self.horizon + 1))
        #expect(m.credit[0] > 0 && m.credit[1] == 0)
        #expect(m.weights[0] > 0.99)
    }

    /// Members that disagree at random, answered at random: the weights stay a distribution, the
    /// gaps never fall, and the mixed score lies within the members' scores.
    @Test(arguments: [UInt64(4), 5, 6, 7])
    func weightsStayADistributionAndTheMixWithinItsMembers(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let members = Int.random(in: 1...PredictorMixture.capacity, using: &rng)
        var m = PredictorMixture(members: members, longest: Self.horizon)
        var t: Int64 = 0, gaps = 0.0
        for _ in 0..<2_000 {
            var s = SIMD4<Double>.zero
            for k in 0..<members { s[k] = Double.random(in: 0..<1, using: &rng) * (k.isMultiple(of: 2) ? 1 : 0.1) }
            let app = Int32(Int.random(in: 0..<5, using: &rng))
            let mixed = m.mix(s, kind: PredictionMoment.Kind.allCases.randomElement(using: &rng)!, app: app, at: t, horizon: Self.horizon)
            var low = 1.0, top = 0.0
            for k in 0..<members { (low, top) = (min(low, s[k]), max(top, s[k])) }
            #expect(mixed >= low - 1e-12 && mixed <= top + 1e-12)
            if Bool.random(using: &rng) {
                m.weighed(bar: Double.random(in: 0.01..<0.6, using: &rng), worth: Double.random(in: 0.1..<1, using: &rng))
            }
            if Int.random(in: 0..<3, using: &rng) == 0 { m.observe(open(Int32(Int.random(in: 0..<5, using: &rng)), at: t + Self.minute)) }
            checkInvariants(m)
            #expect(m.gaps >= gaps)
            gaps = m.gaps
            t += Int64.random(in: 1...20, using: &rng) * Self.minute
        }
    }
}
