import FetchBench
import FetchCore
import FetchTesting
import Testing

/// `predict`'s second reliability table: the chance each model's rule decides on, learned
/// forward only, as the value rule calibrates a score.
struct RuleCalibrationTests {
    /// Against a plain reference (every earlier example re-read at each moment): the chance is the
    /// score times what the examples of its cell answered by then came to against what they
    /// expected, each with the rule's prior; an example whose window is still open counts for nothing.
    @Test(arguments: [UInt64(1), 2, 3])
    func theDecidedChanceLearnsOnlyFromExamplesWhoseWindowHasClosed(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var calibration = RuleCalibration()
        let window = 30 * Millis.minute
        var examples: [(end: Int64, cell: Int, score: Double, label: Bool)] = []
        var t: Int64 = 0
        for _ in 0..<3_000 {
            t += Int64(rng.int(in: 0...(4 * Int(Millis.minute))))
            let kind = PredictionMoment.Kind.allCases[rng.int(in: 0...PredictionMoment.Kind.allCases.count - 1)]
            let score = rng.chance(0.1) ? 0 : rng.unit() * (rng.chance(0.5) ? 1 : 0.05)
            let label = rng.chance(score)
            let cell = ChanceCalibration.cell(score, kind: kind)
            let answered = examples.filter { $0.end <= t && $0.cell == cell }
            let hits = Double(answered.filter(\.label).count), expected = answered.reduce(0) { $0 + $1.score }
            let reference = score > 0 ? ChanceCalibration.calibrated(score, hits: hits, expected: expected) : 0
            let chance = calibration.chance(score, kind: kind, label: label, at: t, window: window)
            #expect(abs(chance - reference) < 1e-12, "at \(t): \(chance) against \(reference)")
            #expect(chance >= 0 && chance <= 1)
            if score > 0 { examples.append((t + window, cell, min(1, score), label)) }
        }
    }

    /// The bench keeps one decided chance per example of every primary model, and prints the
    /// users' rows in name order whatever order they ran in.
    @Test func theBenchScoresTheDecidedChanceOfEveryModelAndListsUsersByName() throws {
        let source = try ArraySource(csv: SyntheticLog.csv(users: 3, days: 6, seed: 9))
        var byUser: [Int32: [UsageEvent]] = [:]
        for e in source.events { byUser[e.user, default: []].append(e) }
        var bench = PredictionBench(window: 30 * Millis.minute, tick: 15 * Millis.minute, leaveOneOut: false)
        for user in byUser.keys.sorted(by: >) {
            bench.run(user: user, events: byUser[user]!.sorted { a, b in a.time != b.time ? a.time < b.time : a.canonicallyPrecedes(b) })
        }
        #expect(bench.decided.count == bench.primary.count)
        for (decided, scored) in zip(bench.decided, bench.overall) {
            #expect(decided.examples == scored.examples && decided.positives == scored.positives)
        }
        let text = bench.text(markdown: true, users: source.users)
        #expect(text.contains("| decided chance | examples |"))
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| user-") }.map { String($0.split(separator: "|")[0]) }
        #expect(rows.count == 3 && rows == rows.sorted())
    }
}
