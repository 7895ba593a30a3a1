extension UserSimulator {
    /// An open of an app with a task profile registers its task, unless one is pending. The
    /// work is drawn from the profile, seeded by user, app and moment.
    func registerTask(_ i: Int) {
        guard let p = state.apps[i].settings.task, !state.tasks.has(app: i) else { return }
        var rng = SplitMix64(seed: run.seed, userHash ^ 0x7461_736B, run.catalog.hash(state.apps[i].id),
                             UInt64(bitPattern: state.now))
        let work = FetchDraw.logNormal(median: p.workMedian, sigma: FetchDraw.sigma(median: p.workMedian, p95: p.workP95),
                                       rng: &rng)
        state.tally.background.tasks += 1
        let task = BackgroundTask(app: i, registeredAt: state.now, workLeft: work, grantLeft: p.limit, profile: p)
        state.tally.energyMicroJ += state.tasks.add(task, now: state.now, context: state.context, energy: run.scenario.energy)
    }

    func updateTasks() {
        state.tally.energyMicroJ += state.tasks.update(now: state.now, context: state.context, energy: run.scenario.energy)
    }

    /// Ends the tasks due now: done with their work, or expired at their limit.
    func finishTasks() {
        let now = state.now
        for t in state.tasks.takeEnded(now: now) {
            state.tally.energyMicroJ += run.scenario.energy.processingMicroJ(now - t.runningSince!)
            if t.completes {
                state.tally.background.tasksCompleted += 1
                state.tally.background.taskCompletionMs += now - t.registeredAt
            } else {
                state.tally.background.tasksExpired += 1
                state.apps[t.app].terminated += 1  // penalized like a terminated fetch
            }
        }
        updateTasks()
    }
}
