import FetchCore
import FetchTesting
import Testing

/// The value rule: a predictor's scores calibrated per user, a price per user steered toward a
/// share of the budget, and the same rule over every predictor.
struct ValueRuleTests {
    static let minute = Millis.minute

    func open(_ app: Int32, at t: Int64) -> UsageEvent {
        UsageEvent(time: Instant(millis: t), user: 0, app: app, kind: .open)
    }

    /// Scores that say 0.3 where the truth is 0.6, and 0.05 where it is 0.01: once answered,
    /// each range's chance is the rate the log showed, not the score.
    @Test(arguments: [UInt64(1), 2, 3])
    func calibrationLearnsTheObservedRateOfEachRangeOfScores(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var c = ChanceCalibration()
        let truth: [(score: Double, rate: Double)] = [(0.3, 0.6), (0.05, 0.01)]
        var t: Int64 = 0
        for _ in 0..<4000 {
            for (i, (score, rate)) in truth.enumerated() {
                c.record(score, kind: .tick, app: Int32(i), at: t, horizon: 8 * Self.minute)
                if Double.random(in: 0..<1, using: &rng) < rate { c.observe(open(Int32(i), at: t + 4 * Self.minute)) }
            }
            t += 40 * Self.minute
        }
        c.observe(open(9, at: t + c.longest + 1))
        #expect(abs(c.chance(0.3, kind: .tick) - 0.6) < 0.04)
        #expect(abs(c.chance(0.05, kind: .tick) - 0.01) < 0.01)
        // Another kind of moment has seen nothing: its chance is the score itself.
        #expect(c.chance(0.3, kind: .unlock) == 0.3)
    }

    @Test func anOpenTooSoonOrPastTheHorizonAnswersNo() {
        var c = ChanceCalibration()
        let h = 8 * Self.minute
        c.record(0.5, kind: .open, app: 1, at: 0, horizon: h)
        c.record(0.5, kind: .open, app: 2, at: 0, horizon: h)
        c.record(0.5, kind: .open, app: 3, at: 0, horizon: h)
        c.observe(open(1, at: StaleOpenLabel.lead - 1))  // too soon for a fetch to finish
        c.observe(open(2, at: h + 1))  // past the horizon
        c.observe(open(3, at: h))  // in time
        let cell = 2 * ChanceCalibration.bins + ChanceCalibration.bins - 1
        #expect(c.seen[cell] == 3 && c.hits[cell] == 1)
        // A second open of the same app answers nothing more.
        c.observe(open(3, at: h + Self.minute))
        #expect(c.seen[cell] == 3)
    }

    @Test func waitingOddsFollowWhetherTheAppsOpensComeAfterACheaperMoment() {
        var w = WaitOdds(horizon: 8 * Self.minute)
        for d in Int64(0)..<20 {
            let t = d * Millis.day
            w.observe(open(1, at: t))  // first of its session: nothing cheaper came before
            w.observe(open(2, at: t + 2 * Self.minute))  // after app 1's open
        }
        #expect(w.odds(1) < 0.2 && w.odds(2) > 0.8)
        // An app never seen starts from the user's share: half of the opens came after another's.
        #expect(abs(w.odds(3) - 0.5) < 0.05)
    }

    /// A day of opportunities, ten at each value per joule 1/2, 1/4, … 1/1024, each spending 1% of
    /// the budget: the price that spends 30% a day is the one that keeps the top three values.
    @Test(arguments: [0.1, 0.3, 0.5])
    func thePriceIsReadOffTheUsersOwnOpportunities(share: Double) {
        var pacing = SpendPacing()
        let budget = 1000.0
        for k in 1...10 {
            for i in 0..<10 {
                let t = Int64(k * 10 + i) * Millis.day / 100
                pacing.record(1 / Double(1 << k), cost: 1, energy: 0.01 * budget, budget: budget, at: t)
            }
        }
        pacing.record(1e-9, cost: 1, energy: 0, budget: budget, at: Millis.day)  // a full day seen
        let price = pacing.read(share: share, start: 0)
        let kept = (1...10).filter { 1 / Double(1 << $0) >= price }.count
        #expect(kept == Int((share * 10).rounded()), "price \(price)")
        // A larger share never asks a higher price.
        #expect(pacing.read(share: share * 1.5, start: 0) <= price)
    }

    /// Ten days on which `mail` follows `news` two minutes later, at 07:00.
    @Test(arguments: ValueRuleFamilies.families)
    func theRuleFetchesTheSuccessorAtAnOpenOnTheUsersHabit(family: String) throws {
        var log = LogBuilder()
        for d in 0..<10 {
            log.open("news", at: "07:00", plusDays: d)
            log.open("mail", at: "07:02", plusDays: d)
        }
        let policy = try #require(PolicySpec.parse("\(family)@0.5"))
        let report = log.replay(policy)
        #expect(report.total.rescuedOpens >= 3 && report.total.violations == .zero, "\(report.total)")
    }

    @Test(arguments: ValueRuleFamilies.families)
    func aLargerShareSpendsMoreAndNearItsTarget(family: String) throws {
        var source = try ArraySource(csv: SyntheticLog.csv(users: 4, days: 14, seed: 5))
        let shares = [0.04, 0.25]
        let replays = shares.map {
            makeReplay(policy: PolicySpec.parse("\(family)@\($0)")!, scenario: .default, seed: 1, users: source.users, apps: source.apps)
        }
        try source.run(replays)
        let (small, large) = (replays[0].finish().total, replays[1].finish().total)
        #expect(large.energyMicroJ > small.energyMicroJ && large.rescuedOpens >= small.rescuedOpens)
        #expect(small.violations == .zero && large.violations == .zero)
        // Each user's price is steered toward the share: the small one spends within 2× of it.
        let budget = Double(Scenario.default.energyBudgetMicroJ) * 4 * 14
        #expect(Double(small.energyMicroJ) < 2 * shares[0] * budget && Double(small.energyMicroJ) > 0.5 * shares[0] * budget)
    }

    @Test func everyPredictorHasItsFamiliesInTheRegistryAndTheFrontier() {
        for family in ValueRuleFamilies.families {
            #expect(PolicySpec.parse(family)?.name == family)
            #expect(PolicySpec.parse("\(family)@0.1")?.name == "\(family)@0.1")
            #expect(PolicySpec.parse("\(family):0.01")?.name == "\(family):0.01")
            #expect(PolicySpec.parse("\(family)@0") == nil && PolicySpec.parse("\(family)@1.5") == nil)
            #expect(PolicySpec.parse("\(family):0") == nil && PolicySpec.parse("\(family):11") == nil)
            #expect(PolicySpec.problem(with: "\(family)@x").contains("is not a value of \(family)@<share>"))
            #expect(Frontier.family(of: "\(family)@0.4") == family)
            let sweep = Frontier.sweeps(for: .default).first { $0.family == family }!.policies
            #expect(sweep.count == ValueRuleFamilies.shares.count && sweep.allSatisfy { PolicySpec.parse($0) != nil })
        }
        // The shares run from 1% to the whole budget, no two neighbours more than 1.6× apart.
        let shares = ValueRuleFamilies.shares.compactMap(Double.init)
        #expect(shares.first == 0.01 && shares.last == 1)
        #expect(zip(shares, shares.dropFirst()).allSatisfy { $1 / $0 <= 1.6 })
    }
}
