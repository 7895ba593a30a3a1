import FetchBench
import FetchCore
import FetchTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The prediction benchmark's scores, labels and learners: forward only, deterministic.
struct PredictionTests {
    @Test func aPerfectRankingHasAveragePrecisionOneAndTheScoresAreTheTextbooksOnes() {
        var s = PredictionScore()
        for _ in 0..<30 { s.add(0.9, true) }
        for _ in 0..<70 { s.add(0.1, false) }
        #expect(abs(s.averagePrecision - 1) < 1e-12)
        #expect(abs(s.logLoss - (-(log(0.9)))) < 1e-9)
        #expect(abs(s.brier - 0.01) < 1e-12)
        #expect(s.calibration[9].examples == 30 && s.calibration[9].positives == 30 && s.calibration[1].examples == 70)
        var random = PredictionScore()
        var rng = SplitMix64(seed: 3)
        for _ in 0..<20_000 { random.add(0.5, rng.chance(0.2)) }
        // A model that cannot rank scores its base rate.
        #expect(abs(random.averagePrecision - random.baseRate) < 1e-12)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func mergedScoresEqualOneScoreOverAllExamples(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var a = PredictionScore(), b = PredictionScore(), all = PredictionScore()
        for i in 0..<5_000 {
            let p = Double(rng.int(in: 0...999)) / 1000, y = rng.chance(p)
            if i % 3 == 0 { a.add(p, y) } else { b.add(p, y) }
            all.add(p, y)
        }
        a.merge(b)
        #expect(a.examples == all.examples && a.positives == all.positives)
        #expect(abs(a.logLoss - all.logLoss) < 1e-12 && a.averagePrecision == all.averagePrecision)
    }

    @Test func onlyTheFirstOpenInTheWindowCountsAndItMustComeAfterTheFetchCouldEnd() {
        let w = 30 * Millis.minute
        #expect(!StaleOpenLabel.covers(open: 1_000 + 4_000, moment: 1_000, window: w))
        #expect(StaleOpenLabel.covers(open: 1_000 + w, moment: 1_000, window: w))
        #expect(!StaleOpenLabel.covers(open: 1_001 + w, moment: 1_000, window: w))
        #expect(StaleOpenLabel.stale(open: w + 1, previous: 0, window: w) && !StaleOpenLabel.stale(open: w, previous: 0, window: w))
        #expect(StaleOpenLabel.stale(open: 5, previous: .min, window: w))
    }

    @Test func aLearnerLearnsFromAMomentOnlyOnceItsWindowHasClosedOrItsOpenCame() {
        var log = LogBuilder()
        log.open("news", at: "07:00")
        log.open("mail", at: "07:01")
        log.open("news", at: "08:00")
        var learner = OpenLearner()
        var model = UsageModel()
        let news = log.apps.id("news"), mail = log.apps.id("mail")
        for e in log.events.prefix(2) {
            learner.observe(e)
            model.observe(e)
        }
        let at = log.time("07:10").millis
        _ = learner.predict(news, at: PredictionMoment(kind: .tick, time: at, offsetMinutes: 0), model: model)
        _ = learner.predict(mail, at: PredictionMoment(kind: .tick, time: at, offsetMinutes: 0), model: model)
        #expect(learner.logistic.settled == 0 && learner.logistic.learned == 0)
        // news opens at 08:00, after the window of the 07:10 moment: both are noes, settled then
        // (and learned from as far as the sample of noes picks them).
        learner.observe(log.events[2])
        #expect(learner.logistic.settled == 2)
        let picked = [news, mail].filter { LogisticLearner.negativeWeight(app: Int($0), time: at) != nil }.count
        #expect(learner.logistic.learned == picked)
    }

    @Test func thePredictionBenchIsDeterministicAndScoresEveryModelOnTheSameExamples() throws {
        let source = try ArraySource(csv: SyntheticLog.csv(users: 3, days: 6, seed: 9))
        func run() -> PredictionBench {
            var byUser: [Int32: [UsageEvent]] = [:]
            for e in source.events { byUser[e.user, default: []].append(e) }
            var bench = PredictionBench(window: 30 * Millis.minute, tick: 15 * Millis.minute, leaveOneOut: true)
            for user in byUser.keys.sorted() {
                bench.run(user: user, events: byUser[user]!.sorted { a, b in a.time != b.time ? a.time < b.time : a.canonicallyPrecedes(b) })
            }
            return bench
        }
        let a = run(), b = run()
        #expect(a.text(markdown: true, users: source.users) == b.text(markdown: true, users: source.users))
        #expect(try a.json(users: source.users) == b.json(users: source.users))
        let overall = a.overall
        #expect(overall.count == a.models.count && a.models.count > PolicyRegistry.builtIn.scoredModels.count)
        #expect(Set(overall.map(\.examples)).count == 1 && overall[0].examples > 10_000 && overall[0].positives > 100)
        // On generated habits every model, the published peer's sequence model too, ranks far better than chance.
        #expect(a.models.prefix(4) == ["habits", "counts", "learned", "appm"])
        for s in overall.prefix(PolicyRegistry.builtIn.scoredModels.count) { #expect(s.averagePrecision > 2 * s.baseRate) }
    }

    /// A user's prior from the other users is fitted without that user: changing one user's log
    /// changes every other fold's prior and not the user's own.
    @Test(arguments: [3, 12])
    func aPriorFromTheOtherUsersNeverSeesTheUserItIsFor(users: Int) throws {
        let source = try ArraySource(csv: SyntheticLog.csv(users: users, days: 5, seed: 4))
        var byUser: [[UsageEvent]] = Array(repeating: [], count: users)
        for e in source.events { byUser[Int(e.user)].append(e) }
        let logs = byUser.enumerated().map { (Int32($0.offset), $0.element.sorted { a, b in
            a.time != b.time ? a.time < b.time : a.canonicallyPrecedes(b)
        }) }
        let window = 30 * Millis.minute, tick = 15 * Millis.minute
        let priors = try #require(PredictionBench.priorsFromOtherUsers(logs, window: window, tick: tick))
        let folds = min(users, PredictionBench.maxPriorFolds)
        #expect(priors.count == users && Set(priors.map { "\($0)" }).count == folds)
        #expect(priors.allSatisfy { $0 != LogisticLearner.start })
        var changed = logs
        changed[1].1 = Array(changed[1].1.prefix(changed[1].1.count / 2))
        let after = try #require(PredictionBench.priorsFromOtherUsers(changed, window: window, tick: tick))
        for user in priors.indices {
            #expect((priors[user] == after[user]) == (user % folds == 1), "user \(user)")
        }
        #expect(PredictionBench.priorsFromOtherUsers(Array(logs.prefix(1)), window: window, tick: tick) == nil)
    }

    /// The learned policy starts a user of the population from that user's prior, anyone else
    /// from the shipped one; a policy that learns no such model is left as it is.
    @Test func aLearnedPolicyStartsEachUserOfAPopulationFromItsOwnPrior() {
        var prior = LogisticLearner.policyPrior
        prior[0] += 1
        let population = PopulationPriors([(userHash: StableHash.of("alice"), prior: prior)])
        let learned = AdaptivePolicy(learns: true, label: "learned").learning(from: population)
        #expect(learned.makeState(userHash: StableHash.of("alice")).learner?.logistic.weights == prior)
        #expect(learned.makeState(userHash: StableHash.of("bob")).learner?.logistic.weights == LogisticLearner.policyPrior)
        #expect(AdaptivePolicy().learning(from: population).population == nil)
    }
}
