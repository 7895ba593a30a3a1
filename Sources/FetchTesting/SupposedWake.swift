import FetchCore

/// What the replay engine does at one more event after a log: the rows it makes at that event's
/// moment because of it, for checking that a plan's triggers and the service's wake route give
/// the engine's own decision.
public enum SupposedWake {
    /// The fetches and refusals at `wake`, as `app result network energy bytes` lines: a replay
    /// of `events` (those of `wake`'s user up to `cut`) with the wake, less the same replay
    /// without it. Both run on past the wake's moment, so timed decisions at that instant are in
    /// both and cancel out.
    public static func engineRows(events: [UsageEvent], users: NameTable, apps: NameTable, cut: Int64, wake: UsageEvent,
                                  scenario: Scenario = .default, seed: UInt64 = 1) -> [String] {
        let after = UsageEvent(time: Instant(millis: wake.time.millis + Millis.minute), user: wake.user, kind: .battery,
                               value: 80, offsetMinutes: wake.offsetMinutes)
        func rows(_ extra: [UsageEvent]) -> [String] {
            var source = ArraySource(events: events.filter { $0.time.millis <= cut && $0.user == wake.user } + extra,
                                     users: users, apps: apps)
            let trace = RecordingTrace()
            let replay = makeReplay(policy: ValueRuleFamilies.defaultPolicy, scenario: scenario, seed: seed, users: users,
                                    apps: apps, trace: trace)
            try! source.run([replay])
            _ = replay.finish()
            return trace.rows.filter { $0.start == wake.time.millis }.map { line(app: apps[$0.app], $0.refusal, $0.network, $0.energyMicroJ, $0.bytes) }
        }
        let without = rows([after]), with = rows([wake, after])
        precondition(Array(with.prefix(without.count)) == without, "the timed decisions at the wake's moment differ")
        return Array(with.dropFirst(without.count))
    }

    /// One fetch or refusal as a line, the same for the engine's rows and for answers.
    public static func line(app: String, _ refusal: Refusal?, _ network: Network, _ energyMicroJ: Int64, _ bytes: Int64) -> String {
        "\(app) \(refusal?.traceName ?? "ran") \(network.logName) \(energyMicroJ) \(bytes)"
    }
}

extension SupposedWake {
    /// The fetches of `app` that a replay of one user's `events` up to `cut`, then nothing until one event
    /// past the horizon, starts within `(cut, cut + horizon]`: what a plan from `cut` lists.
    public static func timedFetches(events: [UsageEvent], users: NameTable, apps: NameTable, cut: Instant, horizon: Int64,
                                    app: String, scenario: Scenario = .default, seed: UInt64 = 1,
                                    policy: any FetchPolicy = ValueRuleFamilies.defaultPolicy) -> [TraceRow] {
        guard let last = events.last(where: { $0.time <= cut }) else { return [] }
        var kept = events.filter { $0.time <= cut && $0.user == last.user }
        kept.append(UsageEvent(time: Instant(millis: cut.millis + horizon + Millis.hour), user: last.user, kind: .battery, value: 50,
                               offsetMinutes: last.offsetMinutes))
        var source = ArraySource(events: kept, users: users, apps: apps)
        let trace = RecordingTrace()
        let replay = makeReplay(policy: policy, scenario: scenario, seed: seed, users: users, apps: apps, trace: trace)
        try! source.run([replay])
        _ = replay.finish()
        let id = apps.id(app)
        return trace.rows.filter { $0.app == id && $0.refusal == nil && $0.start > cut.millis && $0.start <= cut.millis + horizon }
    }
}
