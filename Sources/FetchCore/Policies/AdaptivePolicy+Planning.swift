extension AdaptivePolicy: PlanningPolicy {
    public func habits(in state: UserState) -> UsageModel? { state.model }

    public func terms(of a: Assessment) -> (expectedRescues: Double, costJoules: Double) {
        (a.expectedRescues, a.costJoules)
    }

    public func explain(_ a: Assessment?, kind: FetchPlan.Trigger.Kind, app: Int32, at e: UsageEvent, state: UserState) -> String {
        // Written piece by piece into one string, with room for a long reason from the start: a
        // plan writes a reason for every trigger, and pieces interpolated, then joined, cost more.
        var out = ""
        out.reserveCapacity(320)
        if let a {
            if let learner = state.learner {
                // The learner is asked only about an app that would be stale.
                if a.unneeded == nil {
                    out += Self.learnedSignal(a, learner: learner)
                    out += "; "
                }
            } else {
                Self.signal(kind, model: state.model, app: app, at: e, into: &out)
                out += "; "
            }
        }
        if let a {
            Self.weighing(a, into: &out)
        } else {
            out += "the policy does not weigh it then (it waits for two opens and a learned session)"
        }
        return out
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

    /// What the habits say: the chance behind the decision, by the kind of wake; written at the
    /// end of `out`.
    static func signal(_ kind: FetchPlan.Trigger.Kind, model: UsageModel, app: Int32, at e: UsageEvent, into out: inout String) {
        let t = e.time.millis, offset = Int(e.offsetMinutes)
        func percent(_ p: Double) { out += String(TriggerReason.percent(p)) }
        switch kind {
        case .screenOn:
            out += "you open it in "
            percent(model.sessionProbability(app, at: t, offsetMinutes: offset))
            out += "% of sessions at this time of the week, "
            percent(model.lateShare(app))
            out += "% of them "
            out += Self.usableLeadText
            out += " or more after unlock"
        case .plugged:
            out += "you open it within "
            out += Self.sessionGapText
            out += " of "
            percent(model.plugProbability(app))
            out += "% of plug-ins"
        case .open(let after):
            out += "you open it within "
            out += Self.successorWindowText
            out += " after "
            out += after
            out += " "
            percent(model.successorProbability(app, after: e.app))
            out += "% of the time"
            if model.opensSession(at: t) {
                out += "; that open would start a session, and you open it in "
                percent(model.sessionProbability(app, at: t, offsetMinutes: offset))
                out += "% of sessions at this time of the week"
            }
        case .push:
            out += "its server publishes updates"
        }
    }

    /// The model's spans as a reason writes them, written once.
    static let usableLeadText = DurationText.format(UsageModel.usableLead)
    static let sessionGapText = DurationText.format(UsageModel.sessionGap)
    static let successorWindowText = DurationText.format(UsageModel.successorWindow)

    /// How the policy weighed the fetch, written at the end of `out`.
    static func weighing(_ a: Assessment, into out: inout String) {
        if let why = a.unneeded?.why {
            out += "no fetch needed: "
            out += why
            return
        }
        if a.chance <= 0 {
            out += "nothing suggests an open of it soon after"
            return
        }
        if let r = a.reopen {
            out += "its re-open rhythm gives "
            out += String(TriggerReason.percent(r))
            out += "%; "
        }
        if a.stale < 0.995 {
            out += "its content would be stale at "
            out += String(TriggerReason.percent(a.stale))
            out += "%; "
        }
        out += ResultText.fixed(a.expectedRescues, 2)
        out += " expected rescues for "
        out += ResultText.fixed(a.costJoules, 1)
        out += a.fetch ? " J (the rule's cost of a typical fetch of it), at least the " : " J (the rule's cost of a typical fetch of it), below the "
        out += ResultText.fixed(a.bar, 2)
        out += " needed at the day's price"
    }
}
