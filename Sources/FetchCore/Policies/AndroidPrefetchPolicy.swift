import DequeModule

/// Android's own prefetch rule, as AOSP's JobScheduler runs it for a job marked
/// `setPrefetch(true)`, with the open fallback estimator of the app's next launch.
///
/// The rule (`PrefetchController`, apex/jobscheduler/service/java/com/android/server/job/
/// controllers/PrefetchController.java): a prefetch job may run while the app's estimated next
/// launch is no later than now plus a threshold less an allowance (`willBeLaunchedSoonLocked`):
/// 7 hours less 20 minutes where the controller was first written, 1 hour less 30 minutes in
/// later releases. The estimate (`UsageStatsService.calculateEstimatedPackageLaunchTime`,
/// services/usage/java/com/android/server/usage/UsageStatsService.java): the app's launches of
/// the past week in time order, and the first of them a week later (a day later when the first
/// of them is under a day old) that lies ahead; none in the week is "unknown", a year ahead.
/// An estimate is kept until its moment passes, then made anew.
///
/// The model: an app has a prefetch job once the user has opened it; the job runs once per
/// launch (the app schedules it again at its next launch), at the first tick, or the moment the
/// estimate crosses the threshold, where the rule lets it. What this models is the rule alone:
/// no standby buckets or Doze (`android` models those), and the app is taken to be in the
/// background at every tick. docs/policies.md lists each place the model had to choose.
package struct AndroidPrefetchPolicy: FetchPolicy {
    /// How far ahead an estimated launch lets the job run (`android-prefetch:<threshold>`).
    public let threshold: Int64
    public let name: String

    /// Later releases' threshold.
    package static let defaultThreshold = Millis.hour
    /// How much of the threshold an estimate must clear (`pc_launch_time_allowance_ms`): 30
    /// minutes as in later releases; half a threshold below 1 hour, which AOSP does not allow
    /// (it clamps the threshold to at least 1 hour), so that a sweep's short thresholds mean something.
    package static func allowance(threshold: Int64) -> Int64 { min(30 * Millis.minute, threshold / 2) }
    /// How far back the estimator reads launches, and how far ahead it puts the next one.
    package static let week = 7 * Millis.day

    public init(threshold: Int64 = AndroidPrefetchPolicy.defaultThreshold, name: String = "android-prefetch") {
        self.threshold = threshold
        self.name = name
    }

    /// One app's launches of the past week, oldest first, and its estimate while it holds (nil
    /// before the first, once it has passed, and while it is unknown).
    package struct AppLaunches: Sendable {
        var launches = Deque<Int64>()
        var estimate: Int64?
    }

    public func makeState() -> [AppLaunches] { [] }
    public static var observesEvents: Bool { true }

    public func observe(_ event: UsageEvent, state: inout [AppLaunches]) {
        guard event.kind == .open, event.app >= 0 else { return }
        let a = Int(event.app)
        if a >= state.count { state.append(contentsOf: repeatElement(AppLaunches(), count: a + 1 - state.count)) }
        let t = event.time.millis
        while let first = state[a].launches.first, first < t - Self.week { state[a].launches.removeFirst() }
        state[a].launches.append(t)
    }

    /// The estimator: the first launch of the week before `now` a week later (a day later when
    /// the earliest is under a day old) that lies ahead of `now`; nil with none (AOSP's
    /// "unknown", a year ahead). Launches older than the week are dropped.
    package static func estimate(_ launches: inout Deque<Int64>, now: Int64) -> Int64? {
        while let first = launches.first, first < now - week { launches.removeFirst() }
        guard let first = launches.first else { return nil }
        let ahead = now - first > Millis.day ? week : Millis.day
        for t in launches where t <= now && t + ahead > now { return t + ahead }
        return nil
    }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout [AppLaunches], decision: inout Decision) {
        guard point == .tick || point == .timer else { return }
        let now = view.now.millis, reach = threshold - Self.allowance(threshold: threshold)
        var wake = Int64.max
        for k in view.weighed {
            let app = view.apps[Int(k)]
            guard app.settings.interval != .never && Int(app.id) < state.count else { continue }
            // The job waits for a launch, and runs once per launch.
            guard app.lastOpen != .min, app.lastFetchStart < app.lastOpen else { continue }
            let a = Int(app.id)
            if state[a].estimate.map({ $0 <= now }) ?? true {
                // Made anew once passed; an unknown one is made anew at each tick, not kept a year.
                state[a].estimate = Self.estimate(&state[a].launches, now: now)
            }
            guard let estimate = state[a].estimate else { continue }
            if estimate <= now + reach {
                decision.fetches.append(app.id)
            } else {
                wake = min(wake, estimate - reach)  // the moment the estimate crosses the threshold
            }
        }
        if wake != .max { decision.wakeAt = Instant(millis: wake) }
    }
}
