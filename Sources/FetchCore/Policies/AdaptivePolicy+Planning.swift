extension AdaptivePolicy: PlanningPolicy {
    public func habits(in state: UserState) -> UsageModel? { state.model }

    public func terms(of a: Assessment) -> (expectedRescues: Double, costJoules: Double) {
        (a.expectedRescues, a.costJoules)
    }

    public func explain(_ a: Assessment?, kind: FetchPlan.Trigger.Kind, app: Int32, at e: UsageEvent, state: UserState) -> String {
        var parts: [String] = []
        if let a {
            if let learner = state.learner {
                // The learner is asked only about an app that would be stale.
                if a.unneeded == nil { parts.append(Self.learnedSignal(a, learner: learner)) }
            } else {
                parts.append(Self.signal(kind, model: state.model, app: app, at: e))
            }
        }
        parts.append(a.map(Self.weighing) ?? "the policy does not weigh it then (it waits for two opens and a learned session)")
        return parts.joined(separator: "; ")
    }

    public func waiting(opens: Int) -> String? {
        opens < 2 ? "the adaptive policy waits for two opens (cold start)" : nil
    }

    /// As `adaptive+push` decides at a content update, priced as this policy prices a fetch.
    public func advisePush(app: Int32, view: UserView, state: inout UserState) -> PushAdvice {
        var pushing = PushAdaptivePolicy(alsoFetch: true)
        pushing.fetching = self
        return pushing.advise(app: app, view: view, state: &state)
    }

    /// What the learned model says (``learns``): its own chance, and how much of this user it has learned from.
    static func learnedSignal(_ a: Assessment, learner: OpenLearner) -> String {
        "the learned model gives an open of it within \(DurationText.format(OpenLearner.policyHorizon)) a "
            + "\(TriggerReason.percent(a.chance))% chance, from a population's prior and "
            + "\(learner.logistic.settled) labelled moments of this user"
    }

    /// What the habits say: the chance behind the decision, by the kind of wake.
    static func signal(_ kind: FetchPlan.Trigger.Kind, model: UsageModel, app: Int32, at e: UsageEvent) -> String {
        let t = e.time.millis, offset = Int(e.offsetMinutes)
        let percent = TriggerReason.percent
        switch kind {
        case .screenOn:
            return "you open it in \(percent(model.sessionProbability(app, at: t, offsetMinutes: offset)))% of sessions at this time of the week, "
                + "\(percent(model.lateShare(app)))% of them \(DurationText.format(UsageModel.usableLead)) or more after unlock"
        case .plugged:
            return "you open it within \(DurationText.format(UsageModel.sessionGap)) of \(percent(model.plugProbability(app)))% of plug-ins"
        case .open(let after):
            var out = "you open it within \(DurationText.format(UsageModel.successorWindow)) after \(after) "
                + "\(percent(model.successorProbability(app, after: e.app)))% of the time"
            if model.opensSession(at: t) {
                out += "; that open would start a session, and you open it in "
                    + "\(percent(model.sessionProbability(app, at: t, offsetMinutes: offset)))% of sessions at this time of the week"
            }
            return out
        case .push:
            return "its server publishes updates"
        }
    }

    /// How the policy weighed the fetch.
    static func weighing(_ a: Assessment) -> String {
        if let why = a.unneeded?.why { return "no fetch needed: \(why)" }
        if a.chance <= 0 { return "nothing suggests an open of it soon after" }
        var out = ""
        if let r = a.reopen { out += "its re-open rhythm gives \(TriggerReason.percent(r))%; " }
        if a.stale < 0.995 { out += "its content would be stale at \(TriggerReason.percent(a.stale))%; " }
        let rescues = ResultText.fixed(a.expectedRescues, 2), bar = ResultText.fixed(a.bar, 2)
        out += "\(rescues) expected rescues for \(ResultText.fixed(a.costJoules, 1)) J, "
        out += a.fetch ? "at least the \(bar) needed at the day's price" : "below the \(bar) needed at the day's price"
        return out
    }
}

extension FetchPlanner where P == AdaptivePolicy {
    /// A planner under `adaptive`, the project's policy.
    public init(scenario: Scenario, seed: UInt64) {
        self.init(scenario: scenario, seed: seed, policy: AdaptivePolicy())
    }
}
