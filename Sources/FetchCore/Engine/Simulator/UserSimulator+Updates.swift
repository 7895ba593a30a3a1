extension UserSimulator {
    /// Content updates due by now: each `updates` app whose server published since the policy
    /// last heard of it gets a ``DecisionPoint/contentUpdate(app:)``, then the next update
    /// moment is found. Only for policies that plan pushes.
    func contentUpdates() {
        var next = Int64.max
        state.agenda.nextUpdate = .max  // an app first seen during a decision lowers it again (appIndex)
        for i in state.apps.indices where state.apps[i].updates != nil {
            state.apps[i].advanceContent(to: state.now)
            let last = state.apps[i].updates!.last
            if last > state.apps[i].updateDecided {
                state.apps[i].updateDecided = last
                decide(.contentUpdate(app: state.apps[i].id))
            }
            next = min(next, state.apps[i].updates!.next)
        }
        state.agenda.nextUpdate = min(state.agenda.nextUpdate, next)
    }
}
