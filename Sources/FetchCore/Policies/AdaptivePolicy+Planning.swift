extension AdaptivePolicy: PlanningPolicy {
    public func model(in state: UserState) -> UsageModel { state.model }

    public func terms(of a: Assessment) -> (expectedRescues: Double, costJoules: Double) {
        (a.expectedRescues, a.costJoules)
    }

    public func explain(_ a: Assessment?) -> String {
        a.map(TriggerReason.weighing) ?? "the policy does not weigh it then (it waits for two opens and a learned session)"
    }

    public func waiting(opens: Int) -> String? {
        opens < 2 ? "the adaptive policy waits for two opens (cold start)" : nil
    }
}
