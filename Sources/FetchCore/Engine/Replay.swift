/// Replays usage logs under one policy: routes each event to its user's simulator and, at the
/// end, gathers the metrics per user, per local day and in total.
///
/// Memory grows with users and apps (and, for the oracle, its lookahead), not with log length;
/// fed user by user, with each user retired after its last event (``retire(_:)``), with the
/// largest user and the report's rows, and with the largest user alone when an archive keeps the
/// rows (``UserRowArchive``).
public final class Replay<P: FetchPolicy> {
    let policy: P
    let run: ReplayContext
    let users: NameTable
    @exclusivity(unchecked) private var simulators: [UserSimulator<P>?] = []  // as UserSimulator's state
    @exclusivity(unchecked) private var events = 0
    /// The rows of the users retired so far (unless the archive keeps them), and the sum of their tallies.
    private var retired: [ReplayResult.UserRow] = []
    private var retiredTotal = Tally()
    private let archive: (any UserRowArchive)?

    /// A replay of every user of a log under one policy.
    ///
    /// - Parameters:
    ///   - policy: the policy every user is replayed under.
    ///   - scenario: the settings the log does not carry.
    ///   - seed: the seed of every random draw.
    ///   - users: the user name table the event source fills as it reads.
    ///   - apps: the app name table the event source fills as it reads.
    ///   - trace: where each fetch and refusal is written, if anywhere.
    ///   - archive: where each user's row is kept until the report, if not in memory.
    public init(policy: P, scenario: Scenario, seed: UInt64, users: NameTable, apps: NameTable,
                trace: (any TraceSink)? = nil, archive: (any UserRowArchive)? = nil) {
        self.policy = policy
        self.users = users
        self.archive = archive
        self.run = ReplayContext(seed: seed, catalog: AppCatalog(scenario: scenario, names: apps), trace: trace)
    }

    public var policyName: String { policy.name }

    /// Takes the next event; each user's events must come in time order.
    public func consume(_ e: UsageEvent) {
        events += 1
        let u = Int(e.user)
        if u >= simulators.count { simulators.append(contentsOf: repeatElement(nil, count: u - simulators.count + 1)) }
        if let sim = simulators[u] {
            sim.receive(e)
        } else {
            let sim = UserSimulator(user: e.user, name: users[e.user], policy: policy, run: run)
            simulators[u] = sim
            sim.receive(e)
        }
    }

    /// Ends the replay of a user whose events have all come, keeping only its report row. The
    /// report is the same as when the user runs to the end: users share nothing but tallies
    /// summed in integers, and the rows are sorted by name.
    public func retire(_ user: Int32) {
        let u = Int(user)
        guard u < simulators.count, let sim = simulators[u] else { return }
        let row = Self.row(finishing: sim, users: users)
        retiredTotal.merge(row.tally)
        if let archive { archive.append(row) } else { retired.append(row) }
        simulators[u] = nil
    }

    private static func row(finishing sim: UserSimulator<P>, users: NameTable) -> ReplayResult.UserRow {
        let (tally, days) = sim.finish()
        return .init(user: users[sim.user], days: days, tally: tally)
    }

    public func finish() -> ReplayResult {
        // Moved, not copied: the rows are the most of a replay's memory by user.
        var perUser = retired
        retired = []
        var total = retiredTotal
        for case let sim? in simulators {
            let row = Self.row(finishing: sim, users: users)
            if let archive { archive.append(row) } else { perUser.append(row) }
            total.merge(row.tally)
        }
        perUser.sort { $0.user < $1.user }
        let rows = archive.map { UserRows($0.sealed()) } ?? UserRows(perUser)
        let perDay = run.days.keys.sorted().map { d in
            ReplayResult.DayRow(date: LocalTime.dateText(day: d), users: run.days[d]!.users, tally: run.days[d]!.tally)
        }
        return ReplayResult(policy: policy.name, seed: run.seed, scenario: run.scenario, events: events,
                            total: total, perUser: rows, perDay: perDay)
    }
}

/// A replay whose policy type is not known statically (`bench` runs several side by side).
///
/// It holds closures made where the policy type is concrete, so the per-event path runs code
/// specialized for that policy: calling a generic class through a protocol existential would
/// run its unspecialized generic code, several times slower.
public final class ReplayDriver {
    public let policyName: String
    public let consume: (UsageEvent) -> Void
    public let finish: () -> ReplayResult
    /// ``Replay/retire(_:)``.
    public let retire: (Int32) -> Void

    /// A driver of `replay`, for a policy that makes its own (``FetchPolicy/replay(scenario:seed:users:apps:trace:archive:)``).
    public init<P: FetchPolicy>(_ replay: Replay<P>) {
        policyName = replay.policyName
        consume = { replay.consume($0) }
        retire = { replay.retire($0) }
        finish = { replay.finish() }
    }
}

extension FetchPolicy {
    public func replay(scenario: Scenario, seed: UInt64, users: NameTable, apps: NameTable,
                       trace: (any TraceSink)?, archive: (any UserRowArchive)?) -> ReplayDriver {
        ReplayDriver(Replay(policy: self, scenario: scenario, seed: seed, users: users, apps: apps, trace: trace, archive: archive))
    }
}

/// Makes a replay for any policy value.
public func makeReplay(policy: any FetchPolicy, scenario: Scenario, seed: UInt64, users: NameTable, apps: NameTable,
                       trace: (any TraceSink)? = nil, archive: (any UserRowArchive)? = nil) -> ReplayDriver {
    policy.replay(scenario: scenario, seed: seed, users: users, apps: apps, trace: trace, archive: archive)
}
