/// A model of iOS Background App Refresh as Apple documents it, for an honest row in a
/// comparison.
///
/// Sources: Apple's "Updating your app with background app refresh" and the
/// `UIApplication.setMinimumBackgroundFetchInterval(_:)` reference (the system decides when to
/// fetch, using the user's app usage; `minimum` lets it fetch as often as it likes); WWDC 2019
/// session 707 "Advances in App Background Execution" (the factors: battery and Low Power
/// Mode, app usage, time of day when the user uses the app, the app switcher, system energy and
/// data budgets, rate limits; apps that fail to finish are penalized); WWDC 2020 session 10063.
///
/// The model: at each periodic tick, the `topApps` apps the user opens most (usage decays with
/// a half-life of five days) are candidates; one is fetched when, by its time-of-day habit, an
/// open is likely within the next hour and its last fetch is at least an hour old. An app whose
/// last fetch was terminated is skipped for a day. It stops asking when 90% of the day's energy
/// budget is spent; Low Power Mode and low battery are the engine's hard rules.
public struct IOSPolicy: FetchPolicy {
    public let topApps: Int
    public let threshold: Double

    public init(topApps: Int = 8, threshold: Double = 0.2) {
        self.topApps = topApps
        self.threshold = threshold
    }

    public var name: String { "ios" }
    public static var observesEvents: Bool { true }
    public func makeState() -> UsageModel { UsageModel() }

    public func observe(_ event: UsageEvent, state: inout UsageModel) {
        state.observe(event)
    }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout UsageModel, decision: inout Decision) {
        guard point == .tick || point == .timer else { return }
        guard view.energyUsedToday * 10 < view.energyBudget * 9 else { return }
        let now = view.now.millis
        let ranked = view.apps
            .filter { $0.settings.interval != .never && (state.apps[$0.id]?.allOpens ?? 0) > 0 }
            .sorted { (state.apps[$0.id]!.allOpens, $1.id) > (state.apps[$1.id]!.allOpens, $0.id) }
            .prefix(topApps)
        for app in ranked {
            if app.lastFetchStart != .min && now - app.lastFetchStart < Millis.hour { continue }
            if app.terminated > 0 && app.lastFetchStart != .min && now - app.lastFetchStart < Millis.day,
               app.lastFetchWasTerminated { continue }
            let p = state.openProbability(app.id, from: now, span: Millis.hour, offsetMinutes: view.offsetMinutes)
            if p >= threshold { decision.fetches.append(app.id) }
        }
    }
}
