extension UserSimulator {
    /// A policy asks to fetch `id` now: the engine checks every hard rule, then runs it.
    func request(_ id: Int32, byPush: Bool = false, deadline: Int64 = Millis.deadline) {
        let i = appIndex(id)
        let network = context.network
        let shared = now <= radioUntil && radioNetwork == network
        if let refusal = refusal(i, network: network, sharedWake: shared) {
            tally.refused[refusal.rawValue] += 1
            run.trace?.record(TraceRow(user: user, app: id, start: now, offsetMinutes: Int16(offset), unixForm: unixForm,
                                       durationMs: 0, result: nil, network: network, energyMicroJ: 0, bytes: 0,
                                       refusal: refusal))
            return
        }
        apps[i].advanceContent(to: now)
        let a = apps[i]
        let hasNew: Bool
        if case .updates = a.settings.content {
            hasNew = (apps[i].updates?.last ?? .min) > apps[i].refreshedAt
        } else {
            hasNew = true
        }
        let draw = FetchDraw.at(now, seed: run.seed, userHash: userHash, appHash: run.catalog.hash(id),
                                profile: a.settings.profile, sigma: a.costs.sigma, hasNewData: hasNew, deadline: deadline)
        let energy = run.scenario.energy.fetchMicroJ(ms: draw.runMs, bytes: draw.bytes, network: network, sharedWake: shared)
        energyToday += energy
        tally.energyMicroJ += energy
        if network == .cellular {
            cellularToday += draw.bytes
            tally.cellularBytes += draw.bytes
        } else {
            tally.wifiBytes += draw.bytes
        }
        radioNetwork = network
        radioUntil = max(shared ? radioUntil : .min, now + draw.runMs + run.scenario.energy.radio(network).tail)
        audit(a, runMs: draw.runMs, network: network)
        tally.fetches += 1
        tally.count(draw.result)
        apps[i].inFlight = true
        apps[i].lastFetchStart = now
        apps[i].fetches += 1
        apps[i].pendingStart = now
        apps[i].pendingResult = draw.result
        apps[i].pendingByPush = byPush
        sequence &+= 1
        completions.insert(Moment(time: now + draw.runMs, sequence: sequence, app: Int32(i)))
        run.trace?.record(TraceRow(user: user, app: id, start: now, offsetMinutes: Int16(offset), unixForm: unixForm,
                                   durationMs: draw.runMs, result: draw.result, network: network,
                                   energyMicroJ: energy, bytes: draw.bytes, refusal: nil))
    }

    /// The rule a request breaks, in the order of DESIGN.md, or nil when it may run.
    ///
    /// The budget check reserves the worst case (a fetch that runs to its deadline and moves its
    /// full payload), since the system cannot know in advance how long a fetch will take.
    private func refusal(_ i: Int, network: Network, sharedWake: Bool) -> Refusal? {
        let costs = apps[i].costs
        if costs.never { return .never }
        if apps[i].inFlight { return .running }
        if let blocker = context.blocker { return blocker }
        let last = apps[i].lastFetchStart
        if costs.gap > 0 && last != .min && now - last < costs.gap { return .interval }
        if energyToday + costs.worst(network: network, sharedWake: sharedWake) > energyBudget { return .energyBudget }
        if network == .cellular && cellularToday + costs.worstBytes > cellularBudget { return .cellularBudget }
        return nil
    }

    /// The engine's own check of every hard rule on a fetch it started, counted as violations.
    private func audit(_ a: AppState, runMs: Int64, network: Network) {
        if a.settings.interval == .never { tally.violations[HardRule.never.rawValue] += 1 }
        let gap = a.settings.interval.minimumGap
        if gap > 0 && a.lastFetchStart != .min && now - a.lastFetchStart < gap {
            tally.violations[HardRule.interval.rawValue] += 1
        }
        if runMs > Millis.deadline { tally.violations[HardRule.deadline.rawValue] += 1 }
        if energyToday > run.scenario.energyBudgetMicroJ || cellularToday > run.scenario.cellularBudgetBytes {
            tally.violations[HardRule.budget.rawValue] += 1
        }
        if context.blocker != nil || network == .none { tally.violations[HardRule.context.rawValue] += 1 }
    }

    /// A fetch ends: one that reported newData or noData refreshes its app as of its start.
    func complete(_ m: Moment) {
        let i = Int(m.app)
        apps[i].inFlight = false
        let result = apps[i].pendingResult
        apps[i].count(result)
        guard result.refreshes else { return }
        if result == .newData && apps[i].settings.profile.transferBytes > 0 {
            // The content arrives with the background transfer, not with the fetch.
            enqueueTransfer(i, contentTime: apps[i].pendingStart)
            return
        }
        apps[i].advanceContent(to: now)
        let was = apps[i].refreshedAt
        apps[i].refresh(contentTime: apps[i].pendingStart)
        if apps[i].refreshedAt != was { apps[i].refreshedByPush = apps[i].pendingByPush }
    }
}
