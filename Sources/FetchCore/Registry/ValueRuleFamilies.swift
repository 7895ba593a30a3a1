/// The value rule over each predictor, as the registry (``PolicySpec``) and the frontier list
/// them: `ev-<predictor>`, `ev-<predictor>@<share>` and `ev-<predictor>:<x>`; over the default's
/// predictor (``DefaultPredictor``), the project's policy itself (`adaptive`, `adaptive@<share>`,
/// `adaptive:<x>`), whose `ev-` names are kept as other names of it.
public enum ValueRuleFamilies {
    /// The predictors' names, in the order the frontier sweeps their families.
    public static let predictors = [DefaultPredictor.name, APPMPredictor.name, HabitsPredictor.name, LearnedPredictor.name,
                                    MixPredictor.name, Mix2Predictor.name]

    /// The families' names, in the order of ``predictors``: the default's first, as `adaptive`.
    public static let families = ["adaptive", APPMPredictor.family, HabitsPredictor.family, LearnedPredictor.family,
                                  MixPredictor.family, Mix2Predictor.family]

    /// The shares of the budget a frontier sweeps: from 1% to all of it, each about 1.26 times the
    /// last, so that the points' energies stay within 1.6 times of their neighbours' though each
    /// user's spending lands near, not on, the share asked.
    public static let shares = ["0.01", "0.013", "0.016", "0.02", "0.025", "0.032", "0.04", "0.05", "0.063", "0.08", "0.1",
                                "0.13", "0.16", "0.2", "0.25", "0.32", "0.4", "0.5", "0.63", "0.8", "1"]

    /// The predictor of the project's policy, `adaptive`, and so of `oracle:hindsight`: the one
    /// place that names the default's predictor. Chosen across real people only
    /// (docs/metrics.md, "Choosing across users"); the habits it replaced are `ev-habits`.
    public typealias DefaultPredictor = CountsPredictor

    /// The project's policy, `adaptive`, at its default share: what a service plans with unless told otherwise.
    public static var defaultPolicy: ValueRulePolicy<DefaultPredictor> { ValueRulePolicy(DefaultPredictor(), label: "adaptive") }

    /// The registry's family `adaptive`: the project's policy, first in the list, also known by
    /// its predictor's `ev-` names.
    static var adaptive: PolicyFamily {
        let p = DefaultPredictor(), share = TriggerReason.percent(ValueRulePolicy<DefaultPredictor>.defaultShare)
        let own = [entry(p, name: "adaptive", summary: "this project's policy: the value rule over each user's "
                             + "\(DefaultPredictor.name), its price the user's own for \(share)% of the daily budget"),
                   shareEntry(p, name: "adaptive", subject: "adaptive"), priceEntry(p, name: "adaptive", subject: "adaptive")]
        return PolicyFamily(name: "adaptive", entries: own + entries(p), sweeping: shares.map { "adaptive@\($0)" },
                            examples: ["adaptive", "adaptive@0.04", "adaptive:0.001", "\(DefaultPredictor.family)@0.1"])
    }

    /// The registry's families of the value rule over the other predictors: per predictor, the
    /// default share, a share, a price (`predict` scores these predictors as its own models).
    static var others: [PolicyFamily] {
        [family(APPMPredictor(), entries: entries(APPMPredictor()), examples: ["ev-appm@1"]),
         family(HabitsPredictor(), entries: entries(HabitsPredictor()), examples: ["ev-habits", "ev-habits:0.001"]),
         family(LearnedPredictor(), entries: entries(LearnedPredictor()), examples: ["ev-learned"]),
         family(MixPredictor(), entries: entries(MixPredictor()), examples: ["ev-mix"]),
         family(Mix2Predictor(), entries: entries(Mix2Predictor()), examples: ["ev-mix2"])]
    }

    /// A family of the rule over `predictor`, swept over ``shares``.
    static func family<P: OpenPredictor>(_ predictor: P, entries: [PolicySpec.Entry], examples: [String],
                                         scored: Bool = false) -> PolicyFamily {
        PolicyFamily(name: P.family, entries: entries, sweeping: shares.map { "\(P.family)@\($0)" }, examples: examples,
                     predictor: scored ? predictor : nil)
    }

    /// The family of the value rule over a predictor of your own: its name at the default share,
    /// `@<share>` and `:<x>`, swept over ``shares`` by `bench --frontier` as the built-in
    /// predictors' families are, and the predictor scored by `predict`; one line in a registry
    /// (``PolicyRegistry/adding(_:)``).
    public static func family<P: OpenPredictor>(over predictor: P, examples: [String]) -> PolicyFamily {
        family(predictor, entries: entries(predictor), examples: examples, scored: true)
    }

    /// The rule's names over `predictor`: at the default share, at a share, at a price.
    static func entries<P: OpenPredictor>(_ p: P) -> [PolicySpec.Entry] {
        [entry(p, summary: "the value rule over \(P.name)'s chance, calibrated per user, at the default share"),
         shareEntry(p, subject: "the value rule over \(P.name)"), priceEntry(p, subject: "the value rule over \(P.name)")]
    }

    /// The rule over `predictor` at the default share, by `name` (its family's unless given).
    static func entry<P: OpenPredictor>(_ predictor: P, name: String = P.family, summary: String) -> PolicySpec.Entry {
        PolicySpec.Entry(name: name, summary: summary) { $0 == name ? ValueRulePolicy(predictor, label: name) : nil }
    }

    static func shareEntry<P: OpenPredictor>(_ predictor: P, name: String = P.family, subject: String) -> PolicySpec.Entry {
        .knob("\(name)@<share>", summary: "\(subject) aiming at a share (more than 0, at most 1) of the budget", most: 1) {
            ValueRulePolicy(predictor, budgetShare: $0, label: $1)
        }
    }

    static func priceEntry<P: OpenPredictor>(_ predictor: P, name: String = P.family, subject: String) -> PolicySpec.Entry {
        .knob("\(name):<x>", summary: "\(subject) at one price for every user: x expected rescues per joule (more than 0, at most 10)",
              most: InputBounds.maxRescuesPerJoule) { ValueRulePolicy(predictor, fixedPrice: $0, label: $1) }
    }

    /// The shares a hindsight reference's curve sweeps: every other one of ``shares``, from 1%
    /// to all of the budget, each about 1.6 times the last (a reference's curve is read, not chosen on).
    public static let hindsightShares = stride(from: 0, to: shares.count, by: 2).map { shares[$0] }

    /// The hindsight references (``HindsightPolicy``): the default's rule over its predictor and
    /// over plain counts, each fitted on the user's whole log before the replay starts; swept
    /// over ``hindsightShares`` beside every family's curve. While the default's predictor is the
    /// counts, the two are one policy, swept once, and `oracle:hindsight-counts` is its other name.
    static var hindsight: [PolicyFamily] {
        let main = hindsightFamily(DefaultPredictor(), name: "oracle:hindsight",
                                   subject: "the default's rule over its predictor (\(DefaultPredictor.name))")
        let counts = hindsightFamily(CountsPredictor(), name: "oracle:hindsight-counts", subject: "the default's rule over plain counts")
        guard DefaultPredictor.name == CountsPredictor.name else { return [main, counts] }
        return [PolicyFamily(name: main.name, entries: main.entries + counts.entries, sweeping: hindsightShares.map { "oracle:hindsight@\($0)" },
                             examples: main.examples + ["oracle:hindsight-counts@0.1"])]
    }

    static func hindsightFamily<P: OpenPredictor>(_ predictor: P, name: String, subject: String) -> PolicyFamily {
        let summary = "\(subject), fitted on the user's whole log before the replay starts: what learning could reach in hindsight"
        return PolicyFamily(name: name, entries: [
            PolicySpec.Entry(name: name, summary: summary + " (not causal)") { $0 == name ? HindsightPolicy(predictor, label: name) : nil },
            .knob("\(name)@<share>", summary: "\(name) aiming at a share (more than 0, at most 1) of the budget", most: 1) {
                HindsightPolicy(predictor, budgetShare: $0, label: $1)
            },
        ], sweeping: hindsightShares.map { "\(name)@\($0)" }, examples: [name, "\(name)@0.1"])
    }
}
