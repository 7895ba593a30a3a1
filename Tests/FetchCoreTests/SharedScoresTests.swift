import FetchCore
import FetchTesting
import Testing

/// The points of a swept family of the value rule, run side by side sharing their predictor's
/// scores (``SharedScores``), each decide as that point alone: in time order event by event, in
/// batches grouped by user, and user by user, on seeded random logs.
struct SharedScoresTests {
    /// The counts, shared as `ev-habits`' habits are: the counts' own family does not share (a
    /// score costs what reading it costs), but the sharing must hold for them too.
    struct SharedCounts: OpenPredictor {
        static var name: String { "shared-counts" }
        static var sharesScores: Bool { true }
        func makeState() -> CountsPredictor.State { CountsPredictor().makeState() }
        func observe(_ event: UsageEvent, state: inout CountsPredictor.State) { CountsPredictor().observe(event, state: &state) }

        func score(_ app: Int32, at m: PredictionMoment, horizon: Int64, state: inout CountsPredictor.State) -> Double {
            CountsPredictor().score(app, at: m, horizon: horizon, state: &state)
        }
    }

    enum Feeding: CaseIterable { case eventByEvent, grouped, userByUser }

    static func points(_ family: String, rng: inout SplitMix64) -> [any FetchPolicy] {
        let shares = (0..<rng.int(in: 2...6)).map { _ in Double(ValueRuleFamilies.shares[rng.int(in: 0...20)])! }
        return shares.enumerated().map { i, share -> any FetchPolicy in
            let label = "\(family)@\(share)#\(i)"
            return family == "ev-habits" ? ValueRulePolicy(HabitsPredictor(), budgetShare: share, label: label)
                : ValueRulePolicy(SharedCounts(), budgetShare: share, label: label)
        } + [ValueRulePolicy(CountsPredictor(), budgetShare: 0.1, label: "adaptive@0.1")]
    }

    static func feed(_ log: RandomLog, _ replays: [ReplayDriver], _ feeding: Feeding, rng: inout SplitMix64) {
        switch feeding {
        case .eventByEvent:
            var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
            try! source.run(replays)
        case .grouped:
            var grouping = UserGrouping(batchSize: rng.int(in: 1...400))
            for e in log.events { grouping.add(e, to: replays) }
            grouping.flush(to: replays)
        case .userByUser:
            let buckets = rng.int(in: 1...3)
            for b in 0..<buckets { UserGrouping.replayEach(log.events.filter { Int($0.user) % buckets == b }, through: replays) }
        }
    }

    @Test(arguments: ["ev-habits", "shared-counts"], Feeding.allCases)
    func everyPointOfASharedSweepDecidesAsItWouldAlone(family: String, feeding: Feeding) throws {
        var rng = SplitMix64(seed: 47, 0x73_68)
        for round in 0..<4 {
            var log = RandomLog(seed: rng.next(), users: rng.int(in: 1...4), days: rng.int(in: 2...5), eventsPerDay: 80)
            if rng.chance(0.5) { log = log.withNotifications(seed: rng.next()) }
            let scenario = RandomLog.scenario(seed: rng.next(), apps: Int(log.appCount))
            let points = Self.points(family, rng: &rng)
            // Moments dropped as soon as every point has passed them, now and then.
            let shared = sharingScores(points, keeps: round.isMultiple(of: 2) ? 4096 : rng.int(in: 2...64))
            let scores = (shared[0] as? ValueRulePolicy<HabitsPredictor>)?.sharedScores
                ?? (shared[0] as? ValueRulePolicy<SharedCounts>)?.sharedScores
            #expect(scores != nil, "the family's points share their scores")
            #expect((shared.last as? ValueRulePolicy<CountsPredictor>)?.sharedScores == nil, "the counts' own family shares nothing")

            let replays = shared.map { makeReplay(policy: $0, scenario: scenario, seed: 9, users: log.users, apps: log.apps) }
            Self.feed(log, replays, feeding, rng: &rng)
            for (p, r) in zip(points, replays) {
                let alone = try ResultText.json(log.replay(p, scenario: scenario, seed: 9))
                #expect(try ResultText.json(r.finish()) == alone, "round \(round): \(p.name)")
            }
        }
    }

    /// Two users whose names hash alike (FNV-1a collisions can be made) share nothing: a point
    /// that holds the hash already gets moments of its own for the second, as do the second's
    /// other points, while the first's points still share.
    @Test func aSecondUserOfTheSameHashSharesNothing() {
        let scores = SharedScores(points: 3)
        let first = (0..<3).map { scores.ticket(user: 42, point: $0) }
        let second = (0..<3).map { scores.ticket(user: 42, point: $0) }
        #expect(first.allSatisfy { $0.user === first[0].user })
        for t in second { #expect(t.user !== first[0].user && !second.contains { $0 !== t && $0.user === t.user }) }
        #expect(scores.usersKept == 1)
    }

    /// A user's kept moments go once every point has ended the user, so that memory by user
    /// stays one user's.
    @Test func aUserIsForgottenOnceEveryPointHasEndedIt() throws {
        var rng = SplitMix64(seed: 53, 0x66_67)
        let log = RandomLog(seed: rng.next(), users: 5, days: 3, eventsPerDay: 80)
        let scenario = RandomLog.scenario(seed: rng.next(), apps: Int(log.appCount))
        let shared = sharingScores(Self.points("shared-counts", rng: &rng))
        let scores = try #require((shared[0] as? ValueRulePolicy<SharedCounts>)?.sharedScores)
        let replays = shared.map { makeReplay(policy: $0, scenario: scenario, seed: 9, users: log.users, apps: log.apps) }
        let users = Set(log.events.map(\.user))
        for u in users.sorted() {
            UserGrouping.replayEach(log.events.filter { $0.user == u }, through: replays)
            #expect(scores.usersKept == 0, "user \(u) forgotten once every point retired it")
        }
        #expect(users.count == 5)
    }
}
