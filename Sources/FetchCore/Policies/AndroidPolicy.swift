/// A model of Android's background work limits as Google documents them, for an honest row in
/// a comparison.
///
/// Sources: "App Standby Buckets" (developer.android.com/topic/performance/appstandby: apps
/// sorted by how recently they were used into active, working set, frequent and rare buckets;
/// restrictions apply only on battery power); "Power management restrictions"
/// (developer.android.com/topic/performance/power/power-details: jobs of working-set apps are
/// deferred up to 2 hours, frequent up to 8 hours, rare up to 24 hours); WorkManager's
/// `PeriodicWorkRequest` (a 15-minute minimum interval); "Optimize for Doze and App Standby"
/// (developer.android.com/training/monitoring-device-state/doze-standby: an unplugged device
/// with its screen off for a while defers jobs to maintenance windows, where they run batched).
///
/// The model: every app the user has used has a periodic job every 15 minutes. Its bucket comes
/// from its last use: within an hour active, within a day working set, within three days
/// frequent, else rare; on battery, a job runs at most once per 15 minutes, 2 hours, 8 hours or
/// 24 hours by bucket. With the screen off for 30 minutes or more and no charger, the device
/// dozes and jobs wait for the hourly maintenance window, where all due jobs run together.
package struct AndroidPolicy: FetchPolicy {
    public init() {}

    public var name: String { "android" }
    public func makeState() -> Int64 { .min }  // when the screen last went off, or .min

    public func observe(_ event: UsageEvent, state: inout Int64) {
        if event.kind == .screenOff { state = event.time.millis }
        if event.kind == .screenOn { state = .min }
    }
    public static var observesEvents: Bool { true }

    static func deferral(sinceUse: Int64) -> Int64 {
        if sinceUse <= Millis.hour { return 15 * Millis.minute }    // active
        if sinceUse <= Millis.day { return 2 * Millis.hour }        // working set
        if sinceUse <= 3 * Millis.day { return 8 * Millis.hour }    // frequent
        return Millis.day                                           // rare
    }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout Int64, decision: inout Decision) {
        guard point == .tick || point == .timer else { return }
        let now = view.now.millis
        let charging = view.context.charging
        let dozing = !charging && state != .min && now - state >= 30 * Millis.minute
        if dozing && LocalTime.floorMod(now, Millis.hour) != 0 { return }  // wait for the window
        for app in view.apps where app.settings.interval != .never && app.lastOpen != .min {
            let period = charging ? 15 * Millis.minute : Self.deferral(sinceUse: now - app.lastOpen)
            if app.lastFetchStart == .min || now - app.lastFetchStart >= period {
                decision.fetches.append(app.id)
            }
        }
    }
}
