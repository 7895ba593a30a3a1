/// The value rule over a predictor fitted on the user's whole log before the replay starts: a
/// reference no real policy can reach, for what learning loses (docs/metrics.md, "Comparing at equal energy").
///
/// Before its first decision for a user, the predictor reads every event of that user's log,
/// moved back in time by whole weeks so that it ends before the replay's first event (the time
/// of week and the local day stay those of the log), and then reads the log as it is replayed,
/// as the causal rule's predictor does. So at every moment it knows the whole log's habits and
/// the moment's own context: the app just opened, the session under way. The rule's
/// calibration, its wait odds and its price learn causally, as the causal rule's do: the
/// difference between the two is the predictor's knowledge alone.
///
/// Under `oracle:hindsight` the predictor is the default's (``ValueRuleFamilies/DefaultPredictor``);
/// under `oracle:hindsight-counts` it is the counting baseline's counts (while the default's
/// predictor is the counts, the two names are one policy). A predictor that forgets
/// (the habits fade with a half-life) forgets the head start as it forgets anything else: the
/// reference is what that model reaches given the whole log, not what a model that never forgets
/// would.
///
/// The engine keeps the user's whole log in memory for it (``lookahead``), as it keeps a day
/// ahead for the oracle.
public struct HindsightPolicy<Predictor: OpenPredictor>: FetchPolicy {
    public struct UserState: Sendable {
        package var rule: ValueRulePolicy<Predictor>.UserState
        /// The events read before the first decision, while the whole log is not yet in view;
        /// nil once the predictor has been fitted.
        var before: [UsageEvent]? = []
    }

    package var rule: ValueRulePolicy<Predictor>

    public init(_ predictor: Predictor, budgetShare: Double? = nil, label: String) {
        rule = ValueRulePolicy(predictor, budgetShare: budgetShare, label: label)
    }

    public var name: String { rule.label }
    public static var observesEvents: Bool { true }

    /// Past the longest log the engine accepts: the whole of each user's log is in view at the
    /// first decision (``UserView/future``).
    public var lookahead: Int64 { InputBounds.timestamps.upperBound }

    public func makeState() -> UserState { UserState(rule: rule.makeState()) }

    public func observe(_ event: UsageEvent, state: inout UserState) {
        rule.observe(event, state: &state.rule)
        state.before?.append(event)
    }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision) {
        if let before = state.before {
            state.rule.predictor = fitted(before: before, future: view.future)
            state.before = nil
        }
        rule.decide(point, view: view, state: &state.rule, decision: &decision)
    }

    /// The predictor's state after reading the whole log moved back by ``shift(first:last:)``,
    /// then the events already replayed (`before`), as they were.
    func fitted<Future: Sequence<UsageEvent>>(before: [UsageEvent], future: Future) -> Predictor.State {
        var whole = before + future
        // Each instant's events in the engine's order, as the replay hands them to the predictor.
        whole.sort { $0.time != $1.time ? $0.time < $1.time : $0.canonicallyPrecedes($1) }
        var state = rule.predictor.makeState()
        guard let first = whole.first, let last = whole.last else { return state }
        let shift = Self.shift(first: first.time.millis, last: last.time.millis)
        for var e in whole {
            e.time = Instant(millis: e.time.millis - shift)
            rule.predictor.observe(e, state: &state)
        }
        for e in before { rule.predictor.observe(e, state: &state) }
        return state
    }

    /// How far back the whole log is read: whole weeks, so that every moved event keeps its time
    /// of week, and more than the log's span and two days, so that the moved log ends on a local
    /// day before the log's first, whatever the offsets.
    static func shift(first: Int64, last: Int64) -> Int64 {
        ((max(0, last - first) + 2 * Millis.day) / week + 1) * week
    }

    static var week: Int64 { 7 * Millis.day }
}

extension HindsightPolicy {
    /// A replay under this reference, specialized for the counts, which the registry's references
    /// are over (the default's predictor is the counts too; one that is not wants its line here):
    /// the rule's decision runs for every app at every moment, and the generic form looks up type
    /// metadata there, as ``ValueRulePolicy``'s did.
    @_specialize(where Predictor == CountsPredictor)
    public func replay(scenario: Scenario, seed: UInt64, users: NameTable, apps: NameTable, trace: (any TraceSink)?,
                       archive: (any UserRowArchive)?) -> ReplayDriver {
        ReplayDriver(Replay(policy: self, scenario: scenario, seed: seed, users: users, apps: apps, trace: trace, archive: archive))
    }
}
