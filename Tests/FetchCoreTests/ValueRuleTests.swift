@testable import FetchBench
@testable import FetchCore
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

    /// A day of opportunities, ten at each value per joule 1/2, 1/4, … 1/1024 spread over it,
    /// each spending 1% of the budget: the price that spends 35% a day is the one that keeps the
    /// top four values.
    @Test(arguments: [0.15, 0.35, 0.55])
    func thePriceIsReadOffTheUsersOwnOpportunities(share: Double) {
        var pacing = SpendPacing()
        let budget = 1000.0
        for i in 0..<10 {
            for k in 1...10 {
                let t = Int64(i * 10 + k) * Millis.day / 100
                pacing.record(1 / Double(1 << k), cost: 1, energy: 0.01 * budget, budget: budget, at: t)
            }
        }
        let price = pacing.read(share: share, start: 0)
        let kept = (1...10).filter { 1 / Double(1 << $0) >= price }.count
        #expect(kept == Int((share * 10).rounded(.up)), "price \(price)")
        // A larger share never asks a higher price.
        #expect(pacing.read(share: share * 1.5, start: 0) <= price)
    }

    /// Ten days of opportunities, 40% of a budget a day: five days at 1/2 rescue per joule and
    /// five at 1/64. Read for 25% a day, the user whose dear days are the recent ones pays the
    /// high price; the user whose dear days came first, the low one.
    @Test func theRecentDaysWeighMoreInThePrice() {
        func pacing(dearFirst: Bool) -> SpendPacing {
            var p = SpendPacing()
            for d in 0..<10 {
                let value = (d < 5) == dearFirst ? 0.5 : 1.0 / 64
                for i in 0..<40 {
                    p.record(value, cost: 1, energy: 10, budget: 1000, at: Int64(d) * Millis.day + Int64(i) * Millis.day / 40)
                }
            }
            return p
        }
        #expect(pacing(dearFirst: false).read(share: 0.25, start: 0) == 0.5)
        #expect(pacing(dearFirst: true).read(share: 0.25, start: 0) == 1.0 / 64)
    }

    /// A user kept for years, and one back after a century: the weights are rebased as they grow,
    /// and the price stays the value every day offered.
    @Test(arguments: [Int64(1), 36_500])
    func thePriceStaysFiniteOverYearsAndGaps(gapDays: Int64) {
        var p = SpendPacing()
        var t: Int64 = 0
        for d in 0..<3300 {  // past 2^1024 of weight without a rebase
            p.record(0.125, cost: 1, energy: 500, budget: 1000, at: t)
            p.record(1.0 / 1024, cost: 1, energy: 500, budget: 1000, at: t + Millis.day / 2)
            t += (d == 1000 ? gapDays : 1) * Millis.day
        }
        #expect(p.read(share: 0.4, start: 0) == 0.125)
        #expect(p.energy.allSatisfy { $0.isFinite } && p.weightNow.isFinite)
    }

    /// Five days of ten opens, then a day with thirty by noon: that day may have spent three
    /// days' shares; a day with fewer opens so far than the average day's, or the user's first,
    /// only the usual day's share so far.
    @Test func aBusyDayMaySpendAsMuchMoreAsItHasMoreOpens() {
        var p = SpendPacing()
        #expect(p.allowance(today: 0, elapsed: 0.5) == 0.5)
        func opens(_ n: Int64, day: Int64) {
            for i in Int64(0)..<n { p.observe(open(1, at: day * Millis.day + 8 * Millis.hour + i * Self.minute)) }
        }
        for d in Int64(0)..<4 { opens(10, day: d) }
        opens(5, day: 4)
        #expect(p.allowance(today: 4, elapsed: 0.6) == 0.6)
        opens(5, day: 4)
        opens(30, day: 5)
        #expect(p.allowance(today: 5, elapsed: 0.5) == 3)
        // The next day, before its first open, is a usual day again.
        #expect(p.allowance(today: 6, elapsed: 0.1) == 0.1)
    }

    /// Ten days of `news` at 07:00 and `mail` at 07:02, with and without an app the user never
    /// opens whose silent pushes the engine fetches every twenty minutes: those fetches spend many
    /// times a 2% share, and the rule, which did not decide them, rescues as much as without them.
    @Test(arguments: [PredictionMoment.Kind.open, .tick])
    func fetchesTheRuleDidNotDecideLeaveItsPriceAlone(habitAt kind: PredictionMoment.Kind) throws {
        func log(pushes: Bool) -> LogBuilder {
            var log = LogBuilder()
            for d in 0..<10 {
                if pushes {
                    for m in stride(from: 0, to: 24 * 60, by: 20) {
                        let (h, mm) = (m / 60, m % 60)
                        log.push("chat", .silent, at: "\(h < 10 ? "0" : "")\(h):\(mm < 10 ? "0" : "")\(mm)", plusDays: d)
                    }
                }
                if kind == .open { log.open("news", at: "07:00", plusDays: d) }
                log.open("mail", at: "07:02", plusDays: d)
            }
            return log
        }
        let policy = try #require(PolicySpec.parse("adaptive@0.02"))
        let (quiet, pushed) = (log(pushes: false).replay(policy).total, log(pushes: true).replay(policy).total)
        let budget = Double(Scenario.default.energyBudgetMicroJ) * 10
        #expect(Double(pushed.energyMicroJ - quiet.energyMicroJ) > 0.1 * budget, "the pushes spend more than the share")
        #expect(quiet.rescuedOpens > 0 && pushed.rescuedOpens >= quiet.rescuedOpens, "\(quiet) \(pushed)")
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
        // The shares run from 1% to the whole budget, no two neighbours more than 1.3× apart, so
        // that spending landing near a share still keeps the points within 1.6× in energy.
        let shares = ValueRuleFamilies.shares.compactMap(Double.init)
        #expect(shares.count == ValueRuleFamilies.shares.count && shares.first == 0.01 && shares.last == 1)
        #expect(zip(shares, shares.dropFirst()).allSatisfy { $1 > $0 && $1 / $0 <= 1.3 })
    }
}
