extension UserSimulator {
    /// Runs one log event: context changes, wake opportunities and opens.
    func process(_ e: UsageEvent) {
        let t = e.time.millis
        if origin == .min { begin(at: t, offsetMinutes: e.offsetMinutes) }
        advance(to: t)
        now = t
        lastActivity = t
        if Int(e.offsetMinutes) != offset {
            offset = Int(e.offsetMinutes)
            dayEnd = .min  // recompute the local day at the new offset
        }
        rollDay(at: t)
        dayHadEvent = true
        unixForm = e.unixForm
        if P.observesEvents { policy.observe(e, state: &policyState) }
        switch e.kind {
        case .open:
            open(e.app)
        case .network:
            let before = context.network
            context.apply(e)
            if context.network != before { radioUntil = .min }
            if !transfers.isEmpty { updateTransfers() }
            if !tasks.isEmpty { updateTasks() }
        case .push:
            wakeRadio()
            push(e.app, kind: PushKind(rawValue: e.value) ?? .alert)
            decide(.wake(e.kind))
        case .screenOn, .plugged, .location:
            if e.kind == .screenOn { lastScreenOn = t }
            context.apply(e)
            if !transfers.isEmpty { updateTransfers() }
            if !tasks.isEmpty { updateTasks() }
            wakeRadio()
            deliverHeld()
            if e.kind == .location { locationWake() }
            decide(.wake(e.kind))
        case .battery, .lowPower, .unplugged, .screenOff:
            context.apply(e)
            if !transfers.isEmpty { updateTransfers() }
            if !tasks.isEmpty { updateTasks() }
        }
    }

    /// An open: measure its freshness, let it refresh the app, and offer a decision.
    private func open(_ id: Int32) {
        let i = appIndex(id)
        apps[i].advanceContent(to: now)
        let a = apps[i]
        let fresh = a.isFresh(refreshed: a.refreshedAt, at: now)
        let freshWithoutFetches = a.isFresh(refreshed: a.openRefreshedAt, at: now)
        tally.opens += 1
        if fresh {
            tally.freshOpens += 1
            if !freshWithoutFetches {
                tally.rescuedOpens += 1
                if a.refreshedByPush { tally.pushes.rescuedOpens += 1 }
            }
        } else {
            if let stale = a.staleness(at: now) { tally.staleness.record(seconds: stale / 1000) }
            let since = a.settings.content.freshFrom(open: now, lastUpdate: a.updates?.last ?? .min)
            tally.missed.count(MissedTally.lastChance(open: now, since: since, screenOn: lastScreenOn,
                                                      otherOpen: lastOpenApp == id ? lastOtherOpen : lastOpen))
        }
        run.trace?.recordOpen(user: user, app: id, time: now, offsetMinutes: Int16(offset), fresh: fresh,
                              rescued: fresh && !freshWithoutFetches)
        apps[i].refresh(contentTime: now)
        apps[i].refreshedByPush = false
        apps[i].openRefreshedAt = now
        apps[i].lastOpen = now
        apps[i].opens += 1
        if lastOpenApp != id { lastOtherOpen = lastOpen }
        lastOpen = now
        lastOpenApp = id
        if apps[i].settings.task != nil { registerTask(i) }
        wakeRadio()
        decide(.open(app: id))
    }

    /// Starts the user's clock at their first event (or reported fetch).
    func begin(at t: Int64, offsetMinutes: Int16) {
        origin = t
        now = t
        offset = Int(offsetMinutes)
        nextTick = (LocalTime.floorDiv(t, tickMs) + 1) * tickMs
    }

    /// The device is awake anyway: fetches starting within the radio's tail share its wake.
    func wakeRadio() {
        guard context.network != .none else { return }
        if radioNetwork != context.network { radioUntil = .min }
        radioNetwork = context.network
        radioUntil = max(radioUntil, now + run.scenario.energy.radio(context.network).tail)
    }

    /// Starts a new local day when `t` is past the current one: budgets reset, tally closed.
    func rollDay(at t: Int64) {
        if t >= dayStart && t < dayEnd { return }
        let d = LocalTime.day(t, offsetMinutes: offset)
        if d != day {
            closeDay()
            day = d
            energyToday = 0
            cellularToday = 0
        }
        dayStart = LocalTime.start(ofDay: d, offsetMinutes: offset)
        dayEnd = dayStart + Millis.day
    }

    /// Hands the day's tally to the run and the user's total. A day counts for the user when it
    /// had a log event or a fetch or refusal (the budget is spent on event-less days too).
    func closeDay() {
        guard day != .min, dayHadEvent || !tally.isEmpty else { return }
        activeDays += 1
        if run.keepsDays {
            var entry = run.days[day] ?? (0, Tally())
            entry.users += 1
            entry.tally.merge(tally)
            run.days[day] = entry
        }
        total.merge(tally)
        tally = Tally()
        dayHadEvent = false
    }
}
