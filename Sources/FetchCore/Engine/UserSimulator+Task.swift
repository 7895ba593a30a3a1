#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UserSimulator {
    /// An open of an app with a task profile registers its task, unless one is pending. The
    /// work is drawn from the profile, seeded by user, app and moment.
    func registerTask(_ i: Int) {
        guard let p = apps[i].settings.task, !tasks.contains(where: { $0.app == i }) else { return }
        var rng = SplitMix64(seed: run.seed, userHash ^ 0x7461_736B, run.catalog.hash(apps[i].id), UInt64(bitPattern: now))
        let sigma = p.workP95 > p.workMedian ? log(Double(p.workP95) / Double(p.workMedian)) / 1.644_853_6 : 0
        let work = FetchDraw.logNormal(median: p.workMedian, sigma: sigma, rng: &rng)
        tally.background.tasks += 1
        tasks.append(BackgroundTask(app: i, registeredAt: now, workLeft: work, grantLeft: p.limit, profile: p))
        updateTasks()
    }

    /// Runs tasks while their conditions hold and the device is awake for other reasons (screen
    /// on or charging), pauses them otherwise; then finds the next moment one ends.
    func updateTasks() {
        var next = Int64.max
        let awake = context.screenOn == true || context.charging
        for k in tasks.indices {
            let p = tasks[k].profile
            let allowed = awake && (!p.needsCharging || context.charging) && (!p.needsNetwork || context.network != .none)
            if let since = tasks[k].runningSince, !allowed {
                let ran = now - since
                tasks[k].workLeft -= ran
                tasks[k].grantLeft -= ran
                tally.energyMicroJ += run.scenario.energy.processingMicroJ(ran)
                tasks[k].runningSince = nil
            } else if tasks[k].runningSince == nil && allowed {
                tasks[k].runningSince = now
            }
            if let since = tasks[k].runningSince {
                next = min(next, since + min(tasks[k].workLeft, tasks[k].grantLeft))
            }
        }
        taskDone = next
    }

    /// Ends the tasks due now: done with their work, or expired at their limit.
    func finishTasks() {
        var k = 0
        while k < tasks.count {
            guard let since = tasks[k].runningSince, since + min(tasks[k].workLeft, tasks[k].grantLeft) <= now else {
                k += 1
                continue
            }
            let t = tasks[k]
            tally.energyMicroJ += run.scenario.energy.processingMicroJ(now - since)
            if t.workLeft <= t.grantLeft {
                tally.background.tasksCompleted += 1
                tally.background.taskCompletionMs += now - t.registeredAt
            } else {
                tally.background.tasksExpired += 1
                apps[t.app].terminated += 1  // penalized like a terminated fetch
            }
            tasks.remove(at: k)
        }
        updateTasks()
    }
}

/// A registered background task of an app.
struct BackgroundTask {
    var app: Int
    var registeredAt: Int64
    var workLeft: Int64
    var grantLeft: Int64
    var profile: TaskProfile
    var runningSince: Int64? = nil
}
