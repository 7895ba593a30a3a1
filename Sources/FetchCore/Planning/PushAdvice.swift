/// Whether an app's server should send a silent push to the user now, and why: the push
/// advice a planning policy gives (``PlanningPolicy/advisePush(app:view:state:)``).
public struct PushAdvice: Sendable, Equatable {
    public var push: Bool
    public var reason: String
    /// The chance of an open before the next expected update …
    public var probability: Double
    /// … the expected rescues of the fetch the push would wake, and its price in joules.
    public var value: Double
    public var cost: Double
    public var silentPushesLeft: Int

    public init(push: Bool, reason: String, probability: Double, value: Double, cost: Double, silentPushesLeft: Int) {
        self.push = push
        self.reason = reason
        self.probability = probability
        self.value = value
        self.cost = cost
        self.silentPushesLeft = silentPushesLeft
    }

    /// A "no" that holds whatever the policy: the push could not be delivered or would bring
    /// nothing (the app unknown or off, its content not server updates, the update already
    /// there or being fetched, the hour's silent pushes used up).
    static func no(_ reason: String, view: UserView) -> PushAdvice {
        PushAdvice(push: false, reason: reason, probability: 0, value: 0, cost: 0, silentPushesLeft: view.silentPushesLeft)
    }

    /// The app a push would be weighed for, with its server's mean gap between updates; or the
    /// "no" that holds whatever the policy (``no(_:view:)``).
    static func weighable(_ id: Int32, view: UserView) -> Result<(app: AppState, mean: Int64), Refusal> {
        guard let app = view.app(id) else { return .failure(Refusal(advice: no("the user has not used this app yet", view: view))) }
        guard app.settings.interval != .never else {
            return .failure(Refusal(advice: no("the app's background refresh is off (interval never): a silent push would not be delivered",
                                               view: view)))
        }
        guard case .updates(let mean) = app.settings.content, var updates = app.updates else {
            return .failure(Refusal(advice: no("the app's content is a freshness window, not server updates: there is no update to push",
                                               view: view)))
        }
        let last = updates.advance(to: view.now.millis)
        if app.refreshedAt != .min && app.refreshedAt >= last {
            return .failure(Refusal(advice: no("the app already has the latest update", view: view)))
        }
        if app.inFlight { return .failure(Refusal(advice: no("a fetch of the app is under way", view: view))) }
        guard view.silentPushesLeft > 0 else {
            let used = "the app's \(view.scenario.silentPushesPerHour) silent pushes of the last hour are used up: a push now would be held"
            return .failure(Refusal(advice: no(used, view: view)))
        }
        return .success((app, mean))
    }

    /// The advice that stops the weighing (``weighable(_:view:)``).
    struct Refusal: Error {
        var advice: PushAdvice
    }

    /// How far ahead a push's open is looked for: until the next update is likely, at most six
    /// hours of habit.
    static func horizon(mean: Int64) -> Int64 { min(mean, 6 * Millis.hour) }
}
