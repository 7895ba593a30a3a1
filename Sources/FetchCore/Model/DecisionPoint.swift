/// Why the engine is asking.
public enum DecisionPoint: Equatable, Sendable {
    /// The periodic tick (scenario `engine.tick`).
    case tick
    /// A moment the policy asked for with `Decision.wakeAt`.
    case timer
    /// A wake opportunity: the device is awake anyway (screen_on, plugged, push, location).
    case wake(EventKind)
    /// The user just opened this app (it has refreshed itself).
    case open(app: Int32)
    /// The app's server just published an update (only for policies that plan pushes).
    case contentUpdate(app: Int32)
}
