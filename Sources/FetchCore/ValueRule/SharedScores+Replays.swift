/// A policy whose replay can share work with other policies of its kind run beside it: the
/// points of a swept family of the value rule share their predictor's scores (``SharedScores``).
package protocol ScoreSharing: FetchPolicy {
    /// Policies with the same key, run side by side, may share their scores; nil for one that shares none.
    var scoreKey: ObjectIdentifier? { get }

    /// This policy as point `point` of those sharing `scores`.
    func sharing(_ scores: SharedScores, point: Int) -> Self
}

extension ValueRulePolicy: ScoreSharing {
    /// The predictor's type, when its values all score alike and learn from events alone.
    package var scoreKey: ObjectIdentifier? {
        Predictor.sharesScores && !Predictor.learnsFromDecisions ? ObjectIdentifier(Predictor.self) : nil
    }

    package func sharing(_ scores: SharedScores, point: Int) -> Self {
        var p = self
        (p.sharedScores, p.sharedPoint) = (scores, point)
        return p
    }
}

/// The policies as they run side by side on one thread: those of one swept family of the
/// value rule (two or more with the same ``ScoreSharing/scoreKey``) share their predictor's
/// scores, each deciding as it would alone; every other policy as it is.
package func sharingScores(_ policies: [any FetchPolicy], keeps: Int = 4096) -> [any FetchPolicy] {
    var groups: [ObjectIdentifier: [Int]] = [:]
    for (i, p) in policies.enumerated() {
        if let s = p as? any ScoreSharing, let key = s.scoreKey { groups[key, default: []].append(i) }
    }
    var out = policies
    for members in groups.values where members.count > 1 {
        let scores = SharedScores(points: members.count, keeps: keeps)
        for (point, i) in members.enumerated() {
            if let s = policies[i] as? any ScoreSharing { out[i] = s.sharing(scores, point: point) }
        }
    }
    return out
}

/// Replays of several policies run side by side on one thread, fed the same events
/// (``makeReplay(policy:scenario:seed:users:apps:trace:archive:)`` for each, but the points of a
/// swept family share what they can: ``SharedScores``). The reports are those of each policy replayed alone.
///
/// - Parameters:
///   - policies: the policies, each replayed as it would be alone.
///   - scenario: the settings the log does not carry.
///   - seed: the seed of every random draw.
///   - users: the user name table the event source fills as it reads.
///   - apps: the app name table the event source fills as it reads.
///   - traces: where each policy's fetches and refusals are written, by its place, if anywhere.
///   - archives: where each policy's user rows are kept, by its place, if not in memory.
public func makeReplays(policies: [any FetchPolicy], scenario: Scenario, seed: UInt64, users: NameTable, apps: NameTable,
                        traces: (Int) -> (any TraceSink)? = { _ in nil },
                        archives: (Int) -> (any UserRowArchive)? = { _ in nil }) -> [ReplayDriver] {
    sharingScores(policies).enumerated().map { i, p in
        makeReplay(policy: p, scenario: scenario, seed: seed, users: users, apps: apps, trace: traces(i), archive: archives(i))
    }
}
