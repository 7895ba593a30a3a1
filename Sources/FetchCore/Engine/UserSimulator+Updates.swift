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
}
