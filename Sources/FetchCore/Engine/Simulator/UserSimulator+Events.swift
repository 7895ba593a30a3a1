extension UserSimulator {
    /// Runs one log event: context changes, wake opportunities and opens.
    func process(_ e: UsageEvent) {
        let t = e.time.millis
        if state.origin == .min { begin(at: t, offsetMinutes: e.offsetMinutes) }
        advance(to: t)
        state.now = t
        state.lastActivity = t
        if Int(e.offsetMinutes) != state.offset {
            state.offset = Int(e.offsetMinutes)
            state.budget.forgetBounds()  // the local day is found again at the new offset
        }
        rollDay(at: t)
        state.dayHadEvent = true
        state.unixForm = e.unixForm
        if P.observesEvents { policy.observe(e, state: &state.policy) }
        switch e.kind {
        case .open:
            open(e.app)
        case .network:
            let before = state.context.network
            state.context.apply(e)
            if state.context.network != before { state.radio.networkChanged() }
            contextChanged()
        case .push:
            wakeRadio()
            push(e.app, kind: PushKind(rawValue: e.value) ?? .alert)
            decide(.wake(e.kind))
        case .screenOn, .plugged, .location, .notification:
            if e.kind == .screenOn { state.recent.sawScreenOn(at: t) }
            state.context.apply(e)
            contextChanged()
            wakeRadio()
            deliverHeld()
            if e.kind == .location { locationWake() }
            decide(.wake(e.kind))
        case .battery, .lowPower, .unplugged, .screenOff:
            state.context.apply(e)
            contextChanged()
        }
    }

    /// The device context changed: transfers and tasks start or pause.
    private func contextChanged() {
        if !state.transfers.isEmpty { updateTransfers() }
        if !state.tasks.isEmpty { updateTasks() }
    }

    /// An open: measure its freshness, let it refresh the app, and offer a decision.
    private func open(_ id: Int32) {
        let i = appIndex(id)
        let now = state.now
        state.apps[i].advanceContent(to: now)
        let a = state.apps[i]
        let fresh = a.isFresh(refreshed: a.refreshedAt, at: now)
        let freshWithoutFetches = a.isFresh(refreshed: a.openRefreshedAt, at: now)
        state.tally.opens += 1
        if fresh {
            state.tally.freshOpens += 1
            if !freshWithoutFetches {
                state.tally.rescuedOpens += 1
                if a.refreshedByPush { state.tally.pushes.rescuedOpens += 1 }
            }
        } else {
            if let stale = a.staleness(at: now) { state.tally.staleness.record(seconds: stale / 1000) }
            let since = a.settings.content.freshFrom(open: now, lastUpdate: a.updates?.last ?? .min)
            state.tally.missed.count(MissedTally.lastChance(open: now, since: since, screenOn: state.recent.screenOn,
                                                            otherOpen: state.recent.lastOpen(otherThan: id)))
        }
        run.trace?.recordOpen(user: user, app: id, time: now, offsetMinutes: Int16(state.offset), fresh: fresh,
                              rescued: fresh && !freshWithoutFetches)
        state.apps[i].opened(at: now)
        state.weighed.opened(Int32(i))
        state.recent.opened(id, at: now)
        if state.apps[i].settings.task != nil { registerTask(i) }
        wakeRadio()
        decide(.open(app: id))
    }

    /// Starts the user's clock at their first event (or reported fetch).
    func begin(at t: Int64, offsetMinutes: Int16) {
        state.origin = t
        state.now = t
        state.offset = Int(offsetMinutes)
        state.agenda.startTicks(after: t, every: tickMs)
    }

    /// The device is awake anyway: fetches starting within the radio's tail share its wake.
    func wakeRadio() {
        let network = state.context.network
        guard network != .none else { return }
        state.radio.stayAwake(on: network, through: state.now + run.scenario.energy.radio(network).tail)
    }

    /// Starts a new local day when `t` is past the current one: budgets reset, tally closed.
    func rollDay(at t: Int64) {
        if state.budget.contains(t) { return }
        let d = LocalTime.day(t, offsetMinutes: state.offset)
        if d != state.budget.day { closeDay() }
        state.budget.enter(day: d, offsetMinutes: state.offset)
    }

    /// Hands the day's tally to the run and the user's total. A day counts as one of the
    /// user's days when the log has an event of theirs on it, under every policy alike: a
    /// policy that fetches through a silence in the log spends on days that are not counted
    /// (its tally still is, against the days that are), so that per user-day figures of one
    /// run divide by the same days.
    func closeDay() {
        let day = state.budget.day
        guard day != .min, state.dayHadEvent || !state.tally.isEmpty else { return }
        if state.dayHadEvent { state.activeDays += 1 }
        if run.keepsDays {
            // In place: a copy of the entry shared its staleness histogram with the one kept, and
            // the merge then copied that histogram whole (for every user-day of every policy).
            if state.dayHadEvent { run.days[day, default: (0, Tally())].users += 1 }
            run.days[day, default: (0, Tally())].tally.merge(state.tally)
        }
        state.total.merge(state.tally)
        state.tally = Tally()
        state.dayHadEvent = false
    }
}
