/// The policy families a tool knows, in order: `--help` lists their names in it, `bench
/// --frontier` sweeps the families with a sweep in it, and the hard-rule tests replay each one's
/// examples. Every tool reads one (the built-in one unless given another, as a test gives one
/// with a family of its own), and names no policy itself.
public struct PolicyRegistry: Sendable {
    public private(set) var families: [PolicyFamily]

    public init(_ families: [PolicyFamily]) {
        self.families = families
    }

    /// This registry with `family` added last.
    public func adding(_ family: PolicyFamily) -> PolicyRegistry {
        PolicyRegistry(families + [family])
    }

    /// Every name the families parse, in order.
    public var entries: [PolicySpec.Entry] { families.flatMap(\.entries) }

    /// The families `bench --frontier` sweeps, in order.
    public var swept: [PolicyFamily] { families.filter { $0.sweep != nil } }

    /// The names of the swept families.
    public var sweptNames: [String] { swept.map(\.name) }

    /// The names of the families `bench --frontier` sweeps without `--sweep` (``PolicyFamily/sweptByDefault``).
    public var sweptByDefaultNames: [String] { swept.filter(\.sweptByDefault).map(\.name) }

    /// The names of the yardstick families (``PolicyFamily/isBaseline``).
    public var baselines: [String] { families.filter(\.isBaseline).map(\.name) }

    /// The families' scored models (``PolicyFamily/scored``), in the order `predict` lists them.
    public var scoredModels: [ScoredModel] {
        families.compactMap(\.scored).enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
    }

    /// Every family's examples, for the hard-rule tests.
    public var examples: [String] { families.flatMap(\.examples) }

    /// The policy a name makes, from the first entry that takes it.
    public func make(_ text: String) -> (any FetchPolicy)? {
        for entry in entries {
            if let p = entry.make(text) { return p }
        }
        return nil
    }

    /// The families under whose policies a plan can be made (`next`, `serve --policy`), found by
    /// making each one's first example.
    public var planning: [String] {
        families.filter { f in f.examples.first.flatMap(make) is any PlanningPolicy }.map(\.name)
    }

    /// The project's families, in the order `--help` lists them: the swept ones first, in the
    /// order of the frontier, `adaptive` at the head.
    public static let builtIn = PolicyRegistry(
        [ValueRuleFamilies.adaptive] + PolicySpec.swept + ValueRuleFamilies.others.map { $0.research() }
            + [PolicySpec.adaptiveV1.research()] + PolicySpec.others + ValueRuleFamilies.hindsight)
}
