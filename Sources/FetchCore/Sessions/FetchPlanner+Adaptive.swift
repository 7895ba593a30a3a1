extension FetchPlanner where P == ValueRulePolicy<HabitsPredictor> {
    /// A planner under `adaptive`, the project's policy.
    public init(scenario: Scenario, seed: UInt64) {
        self.init(scenario: scenario, seed: seed, policy: ValueRulePolicy(HabitsPredictor()))
    }
}
