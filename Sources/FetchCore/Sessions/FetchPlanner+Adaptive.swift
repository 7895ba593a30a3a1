extension FetchPlanner where P == ValueRulePolicy<ValueRuleFamilies.DefaultPredictor> {
    /// A planner under `adaptive`, the project's policy.
    public init(scenario: Scenario, seed: UInt64) {
        self.init(scenario: scenario, seed: seed, policy: ValueRuleFamilies.defaultPolicy)
    }
}
