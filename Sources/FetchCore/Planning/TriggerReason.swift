/// The reason of a plan's trigger entry, in words: what the user's habits say about the app at
/// that wake, and how the policy and the engine weighed the fetch.
enum TriggerReason {
    static func text<P: PlanningPolicy>(_ t: FetchPlan.Trigger, policy: P, assessment: P.Assessment?, model: UsageModel?,
                                        app: Int32, at e: UsageEvent) -> String {
        var parts: [String] = []
        if let model { parts.append(signal(t.kind, model: model, app: app, at: e)) }
        if t.kind == .push {
            parts.append("a silent push wakes the app to fetch, whatever the policy would do")
        } else {
            parts.append(policy.explain(assessment))
        }
        if let r = t.refusal { parts.append("the engine refuses the fetch: \(r.traceName)") }
        return parts.joined(separator: "; ")
    }

    /// What the habits say: the chance behind the decision, by the kind of wake.
    static func signal(_ kind: FetchPlan.Trigger.Kind, model: UsageModel, app: Int32, at e: UsageEvent) -> String {
        let t = e.time.millis, offset = Int(e.offsetMinutes)
        switch kind {
        case .screenOn:
            return "you open it in \(percent(model.sessionProbability(app, at: t, offsetMinutes: offset)))% of sessions at this time of the week, "
                + "\(percent(model.lateShare(app)))% of them \(DurationText.format(UsageModel.usableLead)) or more after unlock"
        case .plugged:
            return "you open it within \(DurationText.format(UsageModel.sessionGap)) of \(percent(model.plugProbability(app)))% of plug-ins"
        case .open(let after):
            var out = "you open it within \(DurationText.format(UsageModel.successorWindow)) after \(after) \(percent(model.successorProbability(app, after: e.app)))% of the time"
            if model.sessionStart == t && !model.sessionByScreen {
                out += "; that open would start a session, and you open it in \(percent(model.sessionProbability(app, at: t, offsetMinutes: offset)))% of sessions at this time of the week"
            }
            return out
        case .push:
            return "its server publishes updates"
        }
    }

    /// How the policy weighed the fetch.
    static func weighing(_ a: AdaptivePolicy.Assessment) -> String {
        if let why = a.unneeded?.why { return "no fetch needed: \(why)" }
        if a.chance <= 0 { return "nothing suggests an open of it soon after" }
        var out = ""
        if let r = a.reopen { out += "its re-open rhythm gives \(percent(r))%; " }
        if a.stale < 0.995 { out += "its content would be stale at \(percent(a.stale))%; " }
        let rescues = ResultText.fixed(a.expectedRescues, 2), bar = ResultText.fixed(a.bar, 2)
        out += "\(rescues) expected rescues for \(ResultText.fixed(a.costJoules, 1)) J, "
        out += a.fetch ? "at least the \(bar) needed at the day's price" : "below the \(bar) needed at the day's price"
        return out
    }

    static func percent(_ p: Double) -> Int { Int((p * 100).rounded()) }
}
