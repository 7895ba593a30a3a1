import FetchCore
import FetchTesting
import Testing

/// Feeding a replay each user's events of a batch together gives the report of feeding every
/// event in time order, for every policy, whatever the batch size.
struct UserGroupingTests {
    static let policies = ["none", "fixed:15m", "ios", "android", "adaptive", "oracle", "oracle:opens", "push-adaptive", "adaptive+push"]

    @Test(arguments: policies)
    func groupingUsersGivesTheReportOfEventByEventFeeding(policy: String) throws {
        var rng = SplitMix64(seed: 41, 0x67_72)
        for round in 0..<6 {
            let log = RandomLog(seed: rng.next(), users: rng.int(in: 2...6), days: rng.int(in: 1...4), eventsPerDay: 60)
            let scenario = RandomLog.scenario(seed: rng.next(), apps: Int(log.appCount))
            let spec = try #require(PolicySpec.parse(policy))
            let expected = try ResultText.json(log.replay(spec, scenario: scenario, seed: 5))

            // Two replays through one grouping, as `bench` runs them.
            let replays = (0..<2).map { _ in makeReplay(policy: spec, scenario: scenario, seed: 5, users: log.users, apps: log.apps) }
            var grouping = UserGrouping(batchSize: round == 0 ? UserGrouping.batchSize : rng.int(in: 1...40))
            var source = ArraySource(events: log.events, users: log.users, apps: log.apps)
            while let e = source.next() { grouping.add(e, to: replays) }
            grouping.flush(to: replays)
            for r in replays { #expect(try ResultText.json(r.finish()) == expected, "round \(round)") }
        }
    }

    /// `--by-user`: the users split among buckets, each bucket's users replayed one at a time and
    /// retired after their last event, in any order of buckets, give the report of time order.
    @Test(arguments: policies)
    func replayingEachUserAloneAndRetiringItGivesTheReportOfTimeOrder(policy: String) throws {
        var rng = SplitMix64(seed: 43, 0x62_75)
        for round in 0..<6 {
            let log = RandomLog(seed: rng.next(), users: rng.int(in: 1...7), days: rng.int(in: 1...4), eventsPerDay: 60)
            let scenario = RandomLog.scenario(seed: rng.next(), apps: Int(log.appCount))
            let spec = try #require(PolicySpec.parse(policy))
            let expected = try ResultText.json(log.replay(spec, scenario: scenario, seed: 5))

            let buckets = rng.int(in: 1...4)
            let replays = (0..<2).map { _ in makeReplay(policy: spec, scenario: scenario, seed: 5, users: log.users, apps: log.apps) }
            for b in (0..<buckets).reversed() {
                UserGrouping.replayEach(log.events.filter { Int($0.user) % buckets == b }, through: replays)
            }
            for r in replays { #expect(try ResultText.json(r.finish()) == expected, "round \(round), \(buckets) buckets") }
        }
    }
}
