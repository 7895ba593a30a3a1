import FetchCore

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

    /// The families `bench --frontier` sweeps, as the built-in registry lists them.
    public static var familyNames: [String] { PolicyRegistry.builtIn.sweptNames }
    /// Families whose every point is also compared with the others at its energy: the counting
    /// baseline and the published peers (``PolicyFamily/isBaseline``).
    public static var baselines: [String] { PolicyRegistry.builtIn.baselines }

    /// The knob settings `bench --frontier` sweeps under `scenario`, per family of `registry`, in
    /// its order (``PolicyFamily/sweep``).
    public static func sweeps(for scenario: Scenario, registry: PolicyRegistry = .builtIn) -> [(family: String, policies: [String])] {
        registry.swept.map { f in (f.name, f.sweep?(scenario) ?? []) }
    }

    /// The policies `bench --frontier` adds for `families` (comma-separated names of the swept
    /// families; nil for those swept by default, ``PolicyRegistry/sweptByDefaultNames``; `all` for
    /// every one), in the order of ``sweeps(for:registry:)``.
    public static func sweptPolicies(for scenario: Scenario, families: String?,
                                     registry: PolicyRegistry = .builtIn) throws(SweepError) -> [String] {
        let defaults = registry.sweptByDefaultNames
        guard let families, families != "all" else {
            return sweeps(for: scenario, registry: registry).filter { families != nil || defaults.contains($0.family) }.flatMap(\.policies)
        }
        let names = families.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let unknown = names.first(where: { !registry.sweptNames.contains($0) }) {
            throw SweepError(name: unknown, families: registry.sweptNames)
        }
        return sweeps(for: scenario, registry: registry).filter { names.contains($0.family) }.flatMap(\.policies)
    }

    /// A name in `bench --sweep` that is not a family's.
    public struct SweepError: Error, CustomStringConvertible {
        public var name: String
        public var families: [String] = Frontier.familyNames
        public var description: String {
            "--sweep: '\(InputBounds.printable(name))' is not a family (\(families.joined(separator: ", ")))"
        }
    }

    /// The references `bench --frontier` adds: the oracle, where the frontiers are read, and the
    /// oracle that knows the opens but not the fetches' outcomes (prediction alone). The hindsight
    /// reference (`oracle:hindsight`) is a swept family of its own.
    public static let references = ["oracle", "oracle:opens"]

    /// The family of a policy name (`adaptive@0.04` and `adaptive` are both `adaptive`;
    /// `oracle:hindsight@0.1` is `oracle:hindsight`), nil for a policy with no knob: the longest
    /// swept family's name that the policy's is, or that is followed there by `:` or `@`.
    public static func family(of policy: String, registry: PolicyRegistry = .builtIn) -> String? {
        registry.sweptNames.filter { name in
            guard policy.hasPrefix(name) else { return false }
            let rest = policy.dropFirst(name.count)
            return rest.isEmpty || rest.first == ":" || rest.first == "@"
        }.max { $0.count < $1.count }
    }

    /// The frontiers of every family of `registry` with at least two points among `reports`.
    public static func families(_ reports: [ReplayResult], registry: PolicyRegistry = .builtIn) -> [Frontier] {
        let oracle = reports.first { $0.policy == "oracle" }.map(Self.point)
        let baselines = registry.baselines
        return registry.sweptNames.compactMap { family in
            let points = reports.filter { Self.family(of: $0.policy, registry: registry) == family }.map(Self.point)
            guard points.count >= 2 else { return nil }
            var f = Frontier(family: family, points: points, oracle: oracle)
            f.atEnergyOf = reports.filter { Self.family(of: $0.policy, registry: registry).map(baselines.contains) ?? true }.map { r in
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
