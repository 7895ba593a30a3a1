/// The reason of a plan's trigger entry, in words: the policy's own account of the wake, and
/// what the engine did with the fetch.
enum TriggerReason {
    static func text<P: PlanningPolicy>(_ t: FetchPlan.Trigger, policy: P, assessment: P.Assessment?, state: P.UserState?,
                                        app: Int32, at e: UsageEvent) -> String {
        // Written into one string, the parts "; " apart: a plan writes one for every trigger.
        var out: String
        if t.kind == .push {
            out = "its server publishes updates; a silent push wakes the app to fetch, whatever the policy would do"
        } else if let state {
            out = policy.explain(assessment, kind: t.kind, app: app, at: e, state: state)
        } else {
            out = policy.explain(nil, kind: t.kind, app: app, at: e, state: policy.makeState())
        }
        if let r = t.refusal { out += "; the engine refuses the fetch: " + r.traceName }
        return out
    }

    static func percent(_ p: Double) -> Int { Int((p * 100).rounded()) }
}
