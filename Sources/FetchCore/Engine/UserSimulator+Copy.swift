extension UserSimulator {
    /// An independent copy with its own run context, to project ahead without touching this one.
    ///
    /// Arrays, the heap and the policy state are copy-on-write values, so a copy costs a few
    /// reference-count bumps until the projection writes to them.
    func copy(run: ReplayContext) -> UserSimulator {
        let c = UserSimulator(user: user, userHash: userHash, policy: policy, state: policyState, run: run)
        c.context = context
        c.offset = offset
        c.unixForm = unixForm
        c.now = now
        c.lastActivity = lastActivity
        c.origin = origin
        c.apps = apps
        c.index = index
        c.completions = completions
        c.sequence = sequence
        c.nextTick = nextTick
        c.wakeAt = wakeAt
        c.nextUpdate = nextUpdate
        c.transfers = transfers
        c.transferDone = transferDone
        c.tasks = tasks
        c.taskDone = taskDone
        c.radioUntil = radioUntil
        c.radioNetwork = radioNetwork
        c.day = day
        c.dayStart = dayStart
        c.dayEnd = dayEnd
        c.energyToday = energyToday
        c.cellularToday = cellularToday
        c.dayHadEvent = dayHadEvent
        c.tally = tally
        c.total = total
        c.activeDays = activeDays
        c.events = events
        c.lookaheadBuffer = lookaheadBuffer
        c.batch = batch
        c.lastScreenOn = lastScreenOn
        c.lastOpen = lastOpen
        c.lastOpenApp = lastOpenApp
        c.lastOtherOpen = lastOtherOpen
        c.heldPushes = heldPushes
        c.silentDeliveries = silentDeliveries
        return c
    }
}
