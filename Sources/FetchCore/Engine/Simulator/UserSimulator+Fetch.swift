extension UserSimulator {
    /// A policy asks to fetch `id` now: the engine checks every hard rule, then runs it.
    func request(_ id: Int32, byPush: Bool = false, deadline: Int64 = Millis.deadline) {
        let i = appIndex(id)
        let now = state.now, network = state.context.network
        let shared = state.radio.isAwake(at: now, on: network)
        if let refusal = refusal(i, network: network, sharedWake: shared) {
            state.tally.countRefusal(refusal)
            run.trace?.record(TraceRow(user: user, app: id, start: now, offsetMinutes: Int16(state.offset),
                                       unixForm: state.unixForm, durationMs: 0, result: nil, network: network,
                                       energyMicroJ: 0, bytes: 0, refusal: refusal))
            return
        }
        state.apps[i].advanceContent(to: now)
        // Fields are read in place: a copy of the whole AppState per request showed in profiles.
        let draw = FetchDraw.at(now, seed: run.seed, userHash: userHash, appHash: run.catalog.hash(id),
                                profile: state.apps[i].settings.profile, sigma: state.apps[i].costs.sigma,
                                hasNewData: state.apps[i].hasNewContent, deadline: deadline)
        let energy = run.scenario.energy.fetchMicroJ(ms: draw.runMs, bytes: draw.bytes, network: network, sharedWake: shared)
        account(energy: energy, bytes: draw.bytes, network: network, result: draw.result, runMs: draw.runMs)
        audit(i, runMs: draw.runMs, network: network)
        state.apps[i].started(at: now, result: draw.result, byPush: byPush)
        state.agenda.complete(app: i, at: now + draw.runMs)
        run.trace?.record(TraceRow(user: user, app: id, start: now, offsetMinutes: Int16(state.offset),
                                   unixForm: state.unixForm, durationMs: draw.runMs, result: draw.result, network: network,
                                   energyMicroJ: energy, bytes: draw.bytes, refusal: nil))
    }

    /// Counts a fetch that ran now, started by the engine or reported by the app: the one place
    /// its energy and bytes go against the day's budgets and the tally, and its radio time.
    func account(energy: Int64, bytes: Int64, network: Network, result: FetchResult, runMs: Int64) {
        state.budget.charge(energy: energy, bytes: bytes, network: network)
        state.tally.countFetch(energyMicroJ: energy, bytes: bytes, network: network, result: result)
        state.radio.stayAwake(on: network, through: state.now + runMs + run.scenario.energy.radio(network).tail)
    }

    /// The rule a request breaks, in the order of docs/hard-rules.md, or nil when it may run.
    ///
    /// The budget check reserves the worst case (a fetch that runs to its deadline and moves its
    /// full payload), since the system cannot know in advance how long a fetch will take.
    private func refusal(_ i: Int, network: Network, sharedWake: Bool) -> Refusal? {
        if state.apps[i].settings.interval == .never { return .never }
        if state.apps[i].inFlight { return .running }
        if let blocker = state.context.blocker { return blocker }
        if !state.apps[i].intervalPermits(at: state.now) { return .interval }
        return state.budget.refusal(worstEnergy: state.apps[i].costs.worst(network: network, sharedWake: sharedWake),
                                    worstBytes: state.apps[i].costs.worstBytes, network: network)
    }

    /// Whether the day's budgets have room for the worst case of a fetch of every app now, one
    /// after another: then no fetch can be refused for a budget whichever others ran before it.
    func budgetsCoverEveryApp() -> Bool {
        let network = state.context.network
        var energy: Int64 = 0, bytes: Int64 = 0
        for i in state.apps.indices {
            let costs = state.apps[i].costs
            energy = energy.saturatingAdd(max(costs.worst(network: network, sharedWake: false), costs.worst(network: network, sharedWake: true)))
            bytes = bytes.saturatingAdd(costs.worstBytes)
        }
        // Past a limit on its own, the sum would only overflow the check.
        guard energy <= state.budget.energyLimit, bytes <= state.budget.cellularLimit || network != .cellular else { return false }
        return state.budget.refusal(worstEnergy: energy, worstBytes: bytes, network: network) == nil
    }

    /// The engine's own check of every hard rule on a fetch it started, counted as violations.
    private func audit(_ i: Int, runMs: Int64, network: Network) {
        if state.apps[i].settings.interval == .never { state.tally.countViolation(.never) }
        if !state.apps[i].intervalPermits(at: state.now) { state.tally.countViolation(.interval) }
        if runMs > Millis.deadline { state.tally.countViolation(.deadline) }
        if state.budget.overspent { state.tally.countViolation(.budget) }
        if state.context.blocker != nil || network == .none { state.tally.countViolation(.context) }
    }

    /// A fetch ends: one that reported newData or noData refreshes its app as of its start.
    func complete(_ m: Agenda.Completion) {
        let i = Int(m.app)
        let result = state.apps[i].finished()
        guard result.refreshes else { return }
        if result == .newData && state.apps[i].settings.profile.transferBytes > 0 {
            // The content arrives with the background transfer, not with the fetch.
            enqueueTransfer(i, contentTime: state.apps[i].pendingStart)
            return
        }
        state.apps[i].advanceContent(to: state.now)
        let was = state.apps[i].refreshedAt
        state.apps[i].refresh(contentTime: state.apps[i].pendingStart)
        if state.apps[i].refreshedAt != was { state.apps[i].refreshedByPush = state.apps[i].pendingByPush }
    }
}
