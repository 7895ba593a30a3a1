extension UserSimulator {
    /// Content updates due by now: each `updates` app whose server published since the policy
    /// last heard of it gets a ``DecisionPoint/contentUpdate(app:)``, then the next update
    /// moment is found. Only for policies that plan pushes.
    func contentUpdates() {
        var next = Int64.max
        nextUpdate = .max  // an app first seen during a decision lowers it again (appIndex)
        for i in apps.indices where apps[i].updates != nil {
            apps[i].advanceContent(to: now)
            let last = apps[i].updates!.last
            if last > apps[i].updateDecided {
                apps[i].updateDecided = last
                decide(.contentUpdate(app: apps[i].id))
            }
            next = min(next, apps[i].updates!.next)
        }
        nextUpdate = min(nextUpdate, next)
    }

    /// Silent pushes `id` may still receive within the hourly limit now.
    func silentPushesLeft(_ id: Int32) -> Int {
        let recent = silentDeliveries[id]?.reduce(0) { $0 + (now - $1 < Millis.hour ? 1 : 0) } ?? 0
        return max(0, run.scenario.silentPushesPerHour - recent)
    }
}
