@testable import FetchCore
import FetchTesting
import Testing

/// Issue 81, finding 6: a decision weighs at most ``WeighedApps/limit`` apps, the most recently
/// opened; a user within the bound is weighed on every app they opened, in the apps' order.
struct WeighedAppsTests {
    /// What the decisions saw, checked at each of them.
    final class Seen: @unchecked Sendable {
        var decisions = 0, bounded = 0, mismatches: [String] = [], outside = 0
    }

    /// A policy that runs `inner` and checks, at every decision, the apps the view offers for
    /// weighing against a plain reference made from every app's state, and that every fetch
    /// the inner policy asks for is among them.
    struct Probe<Inner: FetchPolicy>: FetchPolicy {
        let inner: Inner
        let seen: Seen
        var name: String { inner.name }
        static var observesEvents: Bool { Inner.observesEvents }
        func makeState() -> Inner.UserState { inner.makeState() }
        func observe(_ event: UsageEvent, state: inout Inner.UserState) { inner.observe(event, state: &state) }

        func decide(_ point: DecisionPoint, view: UserView, state: inout Inner.UserState, decision: inout Decision) {
            seen.decisions += 1
            // Reference: the opened apps, the most recent `limit` by their last open, in the apps' order.
            let opened = view.apps.indices.filter { view.apps[$0].opens >= 1 }
            let newest = opened.sorted { view.apps[$0].lastOpen > view.apps[$1].lastOpen }.prefix(WeighedApps.limit)
            let reference = newest.sorted().map { Int32($0) }
            if Array(view.weighed) != reference && seen.mismatches.count < 5 {
                seen.mismatches.append("\(point) at \(view.now.millis): \(view.weighed.count) weighed, \(reference.count) expected")
            }
            if view.weighed.bounded != (opened.count > WeighedApps.limit) { seen.mismatches.append("bounded at \(view.now.millis)") }
            if view.weighed.bounded { seen.bounded += 1 }
            for i in view.apps.indices where view.weighed.contains(Int32(i)) != reference.contains(Int32(i)) {
                seen.mismatches.append("contains(\(i)) at \(view.now.millis)")
            }
            inner.decide(point, view: view, state: &state, decision: &decision)
            let weighedIDs = Set(view.weighed.map { view.apps[Int($0)].id })
            seen.outside += decision.fetches.filter { !weighedIDs.contains($0) }.count
        }
    }

    /// One user who opens `apps` apps, first each in turn, then at random, at distinct times
    /// (so that "most recently opened" has one answer), with an unlock before some opens.
    static func manyApps(apps: Int, opens: Int, seed: UInt64) -> (events: [UsageEvent], users: NameTable, names: NameTable) {
        var rng = SplitMix64(seed: seed)
        let users = NameTable(), names = NameTable()
        _ = users.id("u")
        for a in 0..<apps { _ = names.id("app\(a)") }
        var events: [UsageEvent] = [], t: Int64 = 1_736_150_400_000
        for i in 0..<opens {
            t += Int64(rng.int(in: 5...600)) * Millis.second
            if rng.chance(0.2) {
                events.append(UsageEvent(time: Instant(millis: t), user: 0, kind: .screenOn))
                t += Millis.second
            }
            let app = i < apps ? i : rng.int(in: 0...(apps - 1))
            events.append(UsageEvent(time: Instant(millis: t), user: 0, app: Int32(app), kind: .open))
        }
        return (events, users, names)
    }

    static func replay<P: FetchPolicy>(_ policy: P, _ log: (events: [UsageEvent], users: NameTable, names: NameTable)) {
        var source = ArraySource(events: log.events, users: log.users, apps: log.names)
        let replay = makeReplay(policy: policy, scenario: .default, seed: 1, users: log.users, apps: log.names)
        try! source.run([replay])
        _ = replay.finish()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aDecisionWithinTheBoundWeighsEveryOpenedAppInTheAppsOrder(seed: UInt64) {
        // Random users with pushes and notifications: apps the engine knows but the user never opened.
        let log = RandomLog(seed: seed, users: 3, days: 4, eventsPerDay: 200, apps: 40)
        let seen = Seen()
        _ = log.replay(Probe(inner: ValueRuleFamilies.defaultPolicy, seen: seen), scenario: RandomLog.scenario(seed: seed, apps: 40), seed: seed)
        #expect(seen.decisions > 500)
        #expect(seen.bounded == 0)
        #expect(seen.mismatches.isEmpty, "\(seen.mismatches)")
        #expect(seen.outside == 0)
    }

    @Test(arguments: [(UInt64(4), "adaptive"), (5, "counts"), (6, "ev-learned"), (7, "android-prefetch"), (8, "adaptive-v1")])
    func aDecisionPastTheBoundWeighsTheMostRecentlyOpenedAndFetchesOnlyThose(seed: UInt64, policy: String) {
        let log = Self.manyApps(apps: WeighedApps.limit + 150, opens: 1_500, seed: seed)
        let seen = Seen()
        switch PolicySpec.parse(policy)! {
        case let p as ValueRulePolicy<CountsPredictor>: Self.replay(Probe(inner: p, seen: seen), log)
        case let p as ValueRulePolicy<LearnedPredictor>: Self.replay(Probe(inner: p, seen: seen), log)
        case let p as CountsPolicy: Self.replay(Probe(inner: p, seen: seen), log)
        case let p as AndroidPrefetchPolicy: Self.replay(Probe(inner: p, seen: seen), log)
        case let p as AdaptivePolicy: Self.replay(Probe(inner: p, seen: seen), log)
        case let other: Issue.record("unexpected policy \(other.name)")
        }
        #expect(seen.bounded > 1_000, "most decisions come after the user passed the bound")
        #expect(seen.mismatches.isEmpty, "\(seen.mismatches)")
        #expect(seen.outside == 0, "no fetch of an app the decision did not weigh")
    }

    /// The list on its own, over random opens of up to 600 apps, against a plain reference.
    @Test(arguments: [9, 10, 11] as [UInt64])
    func theListKeepsTheMostRecentlyOpenedInIndexOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var list = WeighedApps(), lastOpen: [Int32: Int] = [:], known: Int32 = 0
        for step in 0..<5_000 {
            // New apps come with the next index, as the engine adds them; old ones are opened again.
            let app: Int32 = known < 600 && rng.chance(0.3) ? known : Int32(rng.int(in: 0...Int(max(known - 1, 0))))
            if app == known { known += 1 }
            list.opened(app)
            lastOpen[app] = step
            let reference = lastOpen.sorted { $0.value > $1.value }.prefix(WeighedApps.limit).map(\.key).sorted()
            guard Array(list) == reference, list.bounded == (lastOpen.count > WeighedApps.limit) else {
                Issue.record("step \(step): \(list.count) listed, \(reference.count) expected")
                return
            }
        }
        #expect(known == 600 && list.bounded)
        for app in 0..<known { #expect(list.contains(app) == Array(list).contains(app)) }
    }
}
