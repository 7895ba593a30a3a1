extension UserSimulator {
    /// What the policy sees now.
    func makeView(pushesLeft: Int = 0) -> UserView {
        UserView(now: Instant(millis: state.now), offsetMinutes: state.offset, context: state.context,
                 energyUsedToday: state.budget.energy, cellularUsedToday: state.budget.cellular,
                 policyEnergyToday: state.budget.policyEnergy, policyCellularToday: state.budget.policyCellular,
                 apps: state.apps, weighed: state.weighed,
                 future: state.lookahead, catalog: run.catalog, silentPushesLeft: pushesLeft, index: state.appIndex,
                 seed: run.seed, userHash: userHash, origin: state.origin)
    }

    /// Offers the policy a decision point and runs its answer: fetch requests (each under the
    /// hard rules), silent pushes it plans, and its timer.
    func decide(_ point: DecisionPoint) {
        // Most decisions ask for nothing: an empty array's `removeAll` still runs the general replacement.
        if !decision.fetches.isEmpty { decision.fetches.removeAll(keepingCapacity: true) }
        if !decision.pushes.isEmpty { decision.pushes.removeAll(keepingCapacity: true) }
        decision.wakeAt = nil
        var pushesLeft = 0
        if P.plansPushes, case .contentUpdate(let app) = point { pushesLeft = silentPushesLeft(app) }
        do {
            // The view holds the apps' states: it ends before the fetches run, or the first one's
            // change to its app's state would copy every app's (copy on write).
            let view = makeView(pushesLeft: pushesLeft)
            beforeDecision?(point, view, state.policy)
            if let only = weighingOnly, only.point == point, budgetsCoverEveryApp() {
                policy.decide(point, view: view, state: &state.policy, decision: &decision, weighingOnly: only.app)
            } else {
                policy.decide(point, view: view, state: &state.policy, decision: &decision)
            }
        }
        let asked = decision.fetches
        let before = (energy: state.budget.energy, cellular: state.budget.cellular)
        state.lookupHint = 0
        for app in asked { request(app) }
        if !asked.isEmpty { state.budget.countPolicy(since: before) }
        if P.plansPushes && !decision.pushes.isEmpty {
            let pushes = decision.pushes
            for app in pushes {
                state.tally.pushes.planned += 1
                push(app, kind: .silent)
            }
        }
        if let w = decision.wakeAt { state.agenda.wakeAt = w.millis > state.now ? w.millis : .max }
    }

    /// The index of an app's state, made on first sight. Policies mostly ask for apps in the
    /// order of `view.apps`, some of them, so the few slots after the last one found are tried
    /// before hashing (a decision's requests start the search at the first slot).
    func appIndex(_ id: Int32) -> Int {
        let hint = state.lookupHint, stop = min(state.apps.count, hint + 8)
        var j = hint
        while j < stop {
            if state.apps[j].id == id {
                state.lookupHint = j + 1
                return j
            }
            j += 1
        }
        if let i = state.appIndex[id] {
            state.lookupHint = Int(i) + 1
            return Int(i)
        }
        let settings = run.catalog.settings(id)
        var updates: UpdateProcess? = nil
        if case .updates(let mean) = settings.content {
            updates = UpdateProcess(seed: run.seed, userHash: userHash, appHash: run.catalog.hash(id),
                                    origin: state.origin, meanGap: mean)
        }
        state.apps.append(AppState(id: id, settings: settings, updates: updates, energy: run.scenario.energy))
        state.appIndex[id] = Int32(state.apps.count - 1)
        if P.plansPushes, let u = updates { state.agenda.nextUpdate = min(state.agenda.nextUpdate, u.next) }
        return state.apps.count - 1
    }
}
