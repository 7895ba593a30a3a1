extension UserSimulator {
    /// A `location` event: apps that monitor location get a wake of about 10 seconds, in
    /// which they may fetch (under every hard rule, with a 10-second deadline).
    func locationWake() {
        for i in apps.indices where apps[i].settings.monitorsLocation {
            tally.background.locationWakes += 1
            let before = tally.fetches
            request(apps[i].id, deadline: Self.locationWakeMs)
            if tally.fetches > before { tally.background.locationFetches += 1 }
        }
    }

    static var locationWakeMs: Int64 { 10 * Millis.second }
}
