#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A policy family's curve of rescued opens against energy, to compare policies at equal energy
/// (docs/metrics.md, "Comparing at equal energy"): `adaptive@<share>` over shares, `fixed:<d>` over intervals.
///
/// The curve is the upper envelope of the family's points, starting at no energy and no rescue;
/// it is read by linear interpolation between neighbouring points, and past its last point it
/// stays at that point (spending more is never worse). Every point stays within the budgets,
/// since the engine enforces them, so the best point is the one that rescues the most.
public struct Frontier: Sendable, Encodable {
    public struct Point: Sendable, Encodable {
        public var policy: String
        public var energyJoules: Double
        public var rescuedOpens: Int
        public var freshRate: Double

        public init(policy: String, energyJoules: Double, rescuedOpens: Int, freshRate: Double) {
            self.policy = policy
            self.energyJoules = energyJoules
            self.rescuedOpens = rescuedOpens
            self.freshRate = freshRate
        }
    }

    public var family: String
    /// By energy, cheapest first.
    public var points: [Point]
    /// The oracle's energy and rescued opens, when the oracle ran too.
    public var oracle: Point?
    /// Rescued opens read off the curve at the oracle's energy.
    public var rescuedAtOracleEnergy: Double?
    /// The point that rescues the most (the cheaper one among equals).
    public var best: Point
    /// Each policy without a knob and each point of a baseline family, and this family's
    /// rescued opens at its energy.
    public var atEnergyOf: [Comparison] = []

    public struct Comparison: Sendable, Encodable {
        public var policy: String
        public var energyJoules: Double
        public var rescuedOpens: Int
        public var frontierRescuedOpens: Double
    }

    /// The families `bench --frontier` sweeps.
    public static let familyNames = [HabitsPredictor.family, "counts", "fixed", "appm", "ebc"]
        + ValueRuleFamilies.families.filter { $0 != HabitsPredictor.family } + ["adaptive-v1"]
    /// Families whose every point is also compared with the others at its energy: the counting
    /// baseline and the published peers, so that what learning buys over each shows point by point.
    public static let baselines = ["counts", "appm", "ebc"]

    /// The knob settings `bench --frontier` sweeps under `scenario`, per family: one home for
    /// every list.
    ///
    /// The value rule's families (`adaptive` first) sweep the shares of the budget each user's
    /// price aims at (``ValueRuleFamilies/shares``). `adaptive-v1`'s prices start where a fetch can
    /// still clear the bar: a fetch rescues at most one open, so no price above one per joule of
    /// the cheapest fetch (a shared wake on Wi-Fi) ever fetches, and half that is where the first
    /// fetches come. From there each point halves the price, down to where spending stops
    /// growing; a point aiming at the whole budget closes the curve.
    public static func sweeps(for scenario: Scenario) -> [(family: String, policies: [String])] {
        let p = scenario.defaultApp.profile
        let cheapest = Double(scenario.energy.fetchMicroJ(ms: p.durationMedian, bytes: p.bytes, network: .wifi, sharedWake: true)) / 1e6
        // Bounded as a price from a name is (a scenario may make a fetch nearly free).
        let top = min(InputBounds.maxRescuesPerJoule, 0.5 / max(1e-6, cheapest))
        let prices = (0..<10).map { significant(top / Double(1 << $0)) }
        let rules = Dictionary(uniqueKeysWithValues: ValueRuleFamilies.families.map { f in
            (f, ValueRuleFamilies.shares.map { "\(f)@\($0)" })
        })
        let others: [String: [String]] = [
            "counts": ["counts:0.6", "counts:0.45", "counts:0.3", "counts:0.2", "counts:0.13", "counts:0.08", "counts:0.05",
                       "counts:0.03", "counts:0.015"],
            "fixed": ["fixed:8h", "fixed:4h", "fixed:2h", "fixed:1h", "fixed:30m", "fixed:15m"],
            "appm": ["appm:1", "appm:2", "appm:3", "appm:4", "appm:6", "appm:8", "appm:12"],
            "ebc": ["ebc:0.6", "ebc:0.45", "ebc:0.3", "ebc:0.2", "ebc:0.13", "ebc:0.08", "ebc:0.05", "ebc:0.03", "ebc:0.015"],
            "adaptive-v1": prices.map { "adaptive-v1:\($0)" } + ["adaptive-v1@1"],
        ]
        return familyNames.map { f in (f, rules[f] ?? others[f] ?? []) }
    }

    /// The policies `bench --frontier` adds for `families` (comma-separated names from
    /// ``familyNames``, nil for every one), in the order of ``sweeps(for:)``.
    public static func sweptPolicies(for scenario: Scenario, families: String?) throws(SweepError) -> [String] {
        guard let families else { return sweeps(for: scenario).flatMap(\.policies) }
        let names = families.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let unknown = names.first(where: { !familyNames.contains($0) }) { throw SweepError(name: unknown) }
        return sweeps(for: scenario).filter { names.contains($0.family) }.flatMap(\.policies)
    }

    /// A name in `bench --sweep` that is not a family's.
    public struct SweepError: Error, CustomStringConvertible {
        public var name: String
        public var description: String {
            "--sweep: '\(InputBounds.printable(name))' is not a family (\(familyNames.joined(separator: ", ")))"
        }
    }

    /// `x` to two significant digits, as a policy name writes it.
    static func significant(_ x: Double) -> String {
        var scale = 1.0
        while x * scale < 10 && scale < 1e9 { scale *= 10 }
        let text = ResultText.fixed((x * scale).rounded() / scale, Int(log10(scale).rounded()))
        guard text.contains(".") else { return text }
        let trimmed = String(text.reversed().drop { $0 == "0" }.reversed())
        return trimmed.hasSuffix(".") ? String(trimmed.dropLast()) : trimmed
    }

    /// The references `bench --frontier` adds: the oracle, where the frontiers are read, and the
    /// oracle that knows the opens but not the fetches' outcomes (prediction alone).
    public static let references = ["oracle", "oracle:opens"]

    /// The family of a policy name (`adaptive@0.04` and `adaptive` are both `adaptive`), nil
    /// for a policy with no knob.
    public static func family(of policy: String) -> String? {
        let base = policy.split(maxSplits: 1, whereSeparator: { $0 == ":" || $0 == "@" }).first.map(String.init) ?? policy
        return familyNames.contains(base) ? base : nil
    }

    /// The frontiers of every family with at least two points among `reports`.
    public static func families(_ reports: [ReplayResult]) -> [Frontier] {
        let oracle = reports.first { $0.policy == "oracle" }.map(Self.point)
        return familyNames.compactMap { family in
            let points = reports.filter { Self.family(of: $0.policy) == family }.map(Self.point)
            guard points.count >= 2 else { return nil }
            var f = Frontier(family: family, points: points, oracle: oracle)
            f.atEnergyOf = reports.filter { Self.family(of: $0.policy).map(Self.baselines.contains) ?? true }.map { r in
                let p = point(r)
                return Comparison(policy: p.policy, energyJoules: p.energyJoules, rescuedOpens: p.rescuedOpens,
                                  frontierRescuedOpens: round(f.rescued(atEnergy: p.energyJoules), 1))
            }
            return f
        }
    }

    public init(family: String, points: [Point], oracle: Point?) {
        self.family = family
        self.points = points.sorted { ($0.energyJoules, $0.rescuedOpens) < ($1.energyJoules, $1.rescuedOpens) }
        self.oracle = oracle
        best = self.points.reduce(self.points[0]) { $1.rescuedOpens > $0.rescuedOpens ? $1 : $0 }
        rescuedAtOracleEnergy = nil
        rescuedAtOracleEnergy = oracle.map { round(rescued(atEnergy: $0.energyJoules), 1) }
    }

    /// Rescued opens on the curve at `energy` joules.
    public func rescued(atEnergy energy: Double) -> Double {
        var (e0, r0) = (0.0, 0.0)
        for p in points where Double(p.rescuedOpens) > r0 {
            let (e1, r1) = (p.energyJoules, Double(p.rescuedOpens))
            if energy <= e1 {
                return e1 == e0 ? r1 : r0 + (r1 - r0) * (energy - e0) / (e1 - e0)
            }
            (e0, r0) = (e1, r1)
        }
        return r0
    }

    static func point(_ r: ReplayResult) -> Point {
        Point(policy: r.policy, energyJoules: joules(r.total.energyMicroJ), rescuedOpens: r.total.rescuedOpens,
              freshRate: round(r.freshRate, 4))
    }
}

extension Frontier {
    /// Ratios to the oracle, for tables: rescued at its energy, and the best point's rescued
    /// opens and energy.
    public var ratios: (atOracleEnergy: Double, best: Double, bestEnergy: Double)? {
        guard let o = oracle, o.rescuedOpens > 0, o.energyJoules > 0, let at = rescuedAtOracleEnergy else { return nil }
        return (at / Double(o.rescuedOpens), Double(best.rescuedOpens) / Double(o.rescuedOpens), best.energyJoules / o.energyJoules)
    }
}
