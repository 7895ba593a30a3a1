/// Registered background tasks (long work an app asks the system to run): each runs while its
/// conditions hold and the device is awake for other reasons (screen on or charging).
struct TaskQueue {
    private(set) var items: [BackgroundTask] = []
    /// When the next running task ends, `.max` when none runs.
    private(set) var nextDone: Int64 = .max

    var isEmpty: Bool { items.isEmpty }

    func has(app: Int) -> Bool { items.contains { $0.app == app } }

    /// Adds a task; returns the energy of the work paused tasks ran (see ``update``).
    mutating func add(_ t: BackgroundTask, now: Int64, context: DeviceContext, energy: EnergyModel) -> Int64 {
        items.append(t)
        return update(now: now, context: context, energy: energy)
    }

    /// Runs tasks the context allows and pauses the others; then finds the next moment one
    /// ends. Returns the microjoules the paused tasks used while they ran.
    mutating func update(now: Int64, context: DeviceContext, energy: EnergyModel) -> Int64 {
        var next = Int64.max, paused: Int64 = 0
        let awake = context.screenOn == true || context.charging
        for k in items.indices {
            let p = items[k].profile
            let allowed = awake && (!p.needsCharging || context.charging) && (!p.needsNetwork || context.network != .none)
            if let since = items[k].runningSince, !allowed {
                let ran = now - since
                items[k].workLeft -= ran
                items[k].grantLeft -= ran
                paused += energy.processingMicroJ(ran)
                items[k].runningSince = nil
            } else if items[k].runningSince == nil && allowed {
                items[k].runningSince = now
            }
            if let end = items[k].endsAt { next = min(next, end) }
        }
        nextDone = next
        return paused
    }

    /// Removes and returns the tasks that end by `now` (done with their work, or at their
    /// limit), in the order they were registered; call ``update(now:context:energy:)`` after.
    mutating func takeEnded(now: Int64) -> [BackgroundTask] {
        var ended: [BackgroundTask] = []
        items.removeAll { t in
            guard let end = t.endsAt, end <= now else { return false }
            ended.append(t)
            return true
        }
        return ended
    }

    /// The tasks the log ended before they ran out: counted as pending, then dropped.
    mutating func drop() -> Int {
        defer { items.removeAll() }
        return items.count
    }
}

/// A registered background task of an app.
struct BackgroundTask {
    /// The app's index in the engine's state.
    var app: Int
    var registeredAt: Int64
    var workLeft: Int64
    var grantLeft: Int64
    var profile: TaskProfile
    var runningSince: Int64? = nil

    /// When it ends if it keeps running: its work done or its grant used up; nil while paused.
    var endsAt: Int64? { runningSince.map { $0 + min(workLeft, grantLeft) } }

    /// Whether it ends with its work done (else it expired at its limit).
    var completes: Bool { workLeft <= grantLeft }
}
