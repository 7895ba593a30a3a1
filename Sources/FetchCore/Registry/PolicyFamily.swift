/// A family of policies as every tool sees it: the names it answers to, what `bench --frontier`
/// sweeps of it, whether it is a yardstick the others are read against, and the names the
/// hard-rule tests replay. Adding a family is one declaration in a registry (``PolicyRegistry``).
public struct PolicyFamily: Sendable {
    /// The family's name: its policies' names before any knob (`counts` of `counts:0.3`).
    public let name: String
    /// The names it parses, with what each does, in the order `--help` lists them.
    public let entries: [PolicySpec.Entry]
    /// The knob settings `bench --frontier` sweeps under a scenario, cheapest first; nil when the
    /// family has no curve (a policy without a knob, or one that is not compared at equal energy).
    public let sweep: (@Sendable (Scenario) -> [String])?
    /// Whether each of its points is compared with every family's curve at its energy: the
    /// counting baseline and the published peers, so that what learning buys over each shows.
    public let isBaseline: Bool
    /// Names of its policies, one of each form, that the hard-rule tests replay on random logs.
    public let examples: [String]
    /// A model of opens that `predict` scores beside its own (the counting baseline's, APPM's,
    /// the habits' and the learned model, which the built-in families' rules run over), by its name.
    public let predictor: (any OpenPredictor)?
    /// The chance its policy weighs, as `predict` scores it from its shared reading of a user.
    public let scored: ScoredModel?
    /// Whether `bench --frontier` sweeps it without `--sweep`: the families a user compares (the
    /// default, the baselines, the peers, the platforms' rules, the references). A research family
    /// (the value rule over the other predictors, `adaptive-v1`) is swept when `--sweep` names it.
    public var sweptByDefault = true

    public init(name: String, entries: [PolicySpec.Entry], sweep: (@Sendable (Scenario) -> [String])? = nil,
                isBaseline: Bool = false, examples: [String], predictor: (any OpenPredictor)? = nil, scored: ScoredModel? = nil) {
        self.name = name
        self.entries = entries
        self.sweep = sweep
        self.isBaseline = isBaseline
        self.examples = examples
        self.predictor = predictor
        self.scored = scored
    }

    /// A family whose sweep is the same list under every scenario.
    public init(name: String, entries: [PolicySpec.Entry], sweeping points: [String], isBaseline: Bool = false, examples: [String],
                predictor: (any OpenPredictor)? = nil, scored: ScoredModel? = nil) {
        self.init(name: name, entries: entries, sweep: { _ in points }, isBaseline: isBaseline, examples: examples, predictor: predictor,
                  scored: scored)
    }

    /// This family, swept by `bench --frontier` only when `--sweep` names it (or says `all`).
    public func research() -> PolicyFamily {
        var f = self
        f.sweptByDefault = false
        return f
    }

    /// A family of one name with no knob: `name` makes `make()`.
    public static func single(_ name: String, summary: String, _ make: @escaping @Sendable () -> any FetchPolicy) -> PolicyFamily {
        PolicyFamily(name: name, entries: [PolicySpec.Entry(name: name, summary: summary) { $0 == name ? make() : nil }], examples: [name])
    }
}
