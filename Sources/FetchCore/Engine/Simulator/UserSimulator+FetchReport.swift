extension UserSimulator {
    /// Applies a fetch the app made itself: its energy and bytes count against the day, its
    /// result against the app's reliability, and a successful one refreshes the content as of
    /// its start. The engine runs its own moments up to the fetch's start first.
    func report(_ f: FetchReport) {
        drain()
        let t = f.start.millis
        if state.origin == .min { begin(at: t, offsetMinutes: f.offsetMinutes) }
        advance(to: t)
        state.now = max(state.now, t)
        state.lastActivity = max(state.lastActivity, t)
        rollDay(at: state.now)
        let i = appIndex(f.app)
        let runMs = min(f.durationMs, Millis.deadline)
        let shared = state.radio.isAwake(at: state.now, on: f.network)
        let energy = run.scenario.energy.fetchMicroJ(ms: runMs, bytes: f.bytes, network: f.network, sharedWake: shared)
        account(energy: energy, bytes: f.bytes, network: f.network, result: f.result, runMs: runMs)
        state.apps[i].reported(start: t, result: f.result)
        if f.result.refreshes {
            state.apps[i].advanceContent(to: state.now)
            state.apps[i].refresh(contentTime: t)
        }
    }

    /// The budgets' state at the current moment.
    var budget: BudgetState { state.budget.state(offsetMinutes: state.offset) }
}
