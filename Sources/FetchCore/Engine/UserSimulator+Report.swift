extension UserSimulator {
    /// Applies a fetch the app made itself: its energy and bytes count against the day, its
    /// result against the app's reliability, and a successful one refreshes the content as of
    /// its start. The engine runs its own moments up to the fetch's start first.
    func report(_ f: ReportedFetch) {
        drain()
        let t = f.start.millis
        if origin == .min { begin(at: t, offsetMinutes: f.offsetMinutes) }
        advance(to: t)
        now = max(now, t)
        lastActivity = max(lastActivity, t)
        rollDay(at: now)
        let i = appIndex(f.app)
        let shared = now <= radioUntil && radioNetwork == f.network
        let energy = run.scenario.energy.fetchMicroJ(ms: min(f.durationMs, Millis.deadline), bytes: f.bytes,
                                                     network: f.network, sharedWake: shared)
        // Reports are bounded one by one (InputBounds), but not in number: totals saturate.
        energyToday = energyToday.saturatingAdd(energy)
        tally.energyMicroJ = tally.energyMicroJ.saturatingAdd(energy)
        if f.network == .cellular {
            cellularToday = cellularToday.saturatingAdd(f.bytes)
            tally.cellularBytes = tally.cellularBytes.saturatingAdd(f.bytes)
        } else {
            tally.wifiBytes = tally.wifiBytes.saturatingAdd(f.bytes)
        }
        tally.fetches += 1
        tally.count(f.result)
        radioNetwork = f.network
        radioUntil = max(shared ? radioUntil : .min, now + min(f.durationMs, Millis.deadline) + run.scenario.energy.radio(f.network).tail)
        apps[i].lastFetchStart = max(apps[i].lastFetchStart, t)
        apps[i].fetches += 1
        apps[i].count(f.result)
        if f.result.refreshes {
            apps[i].advanceContent(to: now)
            apps[i].refresh(contentTime: t)
        }
    }

    /// The budgets' state at the current moment.
    var budget: BudgetState {
        BudgetState(day: day, offsetMinutes: offset, energyUsedMicroJ: energyToday,
                    energyBudgetMicroJ: energyBudget, cellularUsedBytes: cellularToday, cellularBudgetBytes: cellularBudget)
    }
}
