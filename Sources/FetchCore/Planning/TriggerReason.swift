/// The reason of a plan's trigger entry, in words: the policy's own account of the wake, and
/// what the engine did with the fetch.
enum TriggerReason {
    static func text<P: PlanningPolicy>(_ t: FetchPlan.Trigger, policy: P, assessment: P.Assessment?, state: P.UserState?,
                                        app: Int32, at e: UsageEvent) -> String {
        var parts: [String] = []
        if t.kind == .push {
            parts.append("its server publishes updates")
            parts.append("a silent push wakes the app to fetch, whatever the policy would do")
        } else if let state {
            parts.append(policy.explain(assessment, kind: t.kind, app: app, at: e, state: state))
        } else {
            parts.append(policy.explain(nil, kind: t.kind, app: app, at: e, state: policy.makeState()))
        }
        if let r = t.refusal { parts.append("the engine refuses the fetch: \(r.traceName)") }
        return parts.joined(separator: "; ")
    }

    static func percent(_ p: Double) -> Int { Int((p * 100).rounded()) }
}
