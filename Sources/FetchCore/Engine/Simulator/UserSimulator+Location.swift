extension UserSimulator {
    /// A `location` event: apps that monitor location get a wake of about 10 seconds, in
    /// which they may fetch (under every hard rule, with a 10-second deadline).
    func locationWake() {
        for i in state.apps.indices where state.apps[i].settings.monitorsLocation {
            state.tally.background.locationWakes += 1
            let before = state.tally.fetches
            request(state.apps[i].id, deadline: Self.locationWakeMs)
            if state.tally.fetches > before { state.tally.background.locationFetches += 1 }
        }
    }

    static var locationWakeMs: Int64 { 10 * Millis.second }
}
