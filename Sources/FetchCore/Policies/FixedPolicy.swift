/// Every app every N minutes, as a periodic job would (Android's WorkManager floor is 15 min).
///
/// The job fires on a grid of multiples of N since the Unix epoch and asks for every app the
/// user has used whose interval is not `never`, in one coalesced wake. It knows nothing of
/// budgets or habits: the engine refuses what the rules forbid.
public struct FixedPolicy: FetchPolicy {
    public let period: Int64
    public let name: String

    /// - Parameters:
    ///   - period: milliseconds between two rounds of fetches, above 0.
    ///   - name: the name as the user wrote it (`fixed:60m`), else the shortest form.
    public init(period: Int64, name: String? = nil) {
        precondition(period > 0)
        self.period = period
        self.name = name ?? "fixed:\(DurationText.format(period))"
    }

    public func makeState() {}

    public func decide(_ point: DecisionPoint, view: UserView, state: inout Void, decision: inout Decision) {
        let now = view.now.millis
        let next = (LocalTime.floorDiv(now, period) + 1) * period
        decision.wakeAt = Instant(millis: next)
        guard point == .tick || point == .timer, LocalTime.floorMod(now, period) == 0 else { return }
        for app in view.apps where app.settings.interval != .never {
            decision.fetches.append(app.id)
        }
    }
}
