#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether an app needs a fetch for the open just ahead, and if not, why not: the staleness
/// check every fetching policy makes before weighing an app.
public enum FetchNeed: Sendable, Equatable {
    /// It may fetch; the chance its content is stale when the open comes.
    case stale(Double)
    /// Its fetch interval is never.
    case never
    /// A fetch of it is running.
    case inFlight
    /// Its last fetch started less than its interval ago.
    case withinInterval
    /// Its content stays fresh past the open just ahead.
    case fresh

    /// Why no fetch, in words; nil when it may fetch.
    public var why: String? {
        switch self {
        case .stale: nil
        case .never: "its fetch interval is never"
        case .inFlight: "a fetch of it is running"
        case .withinInterval: "its last fetch started less than its fetch interval ago"
        case .fresh: "its content is fresh already"
        }
    }
}

extension AppState {
    /// Whether the app needs a fetch for an open within `horizon` of `now`: the chance its
    /// content is stale then, or why no fetch can happen (never, in flight, within the interval)
    /// or is needed (content fresh now stays fresh past the horizon).
    @inline(__always)
    public func need(at now: Int64, within horizon: Int64) -> FetchNeed {
        if settings.interval == .never { return .never }
        if inFlight { return .inFlight }
        if !intervalPermits(at: now) { return .withinInterval }
        switch settings.content {
        case .window(let w):
            if refreshedAt != .min && refreshedAt + w >= now + horizon { return .fresh }
            return .stale(1)
        case .updates(let mean):
            let age = refreshedAt == .min ? Double(mean) * 10 : Double(now + horizon / 2 - refreshedAt)
            return .stale(1 - exp(-age / Double(mean)))
        }
    }
}

extension UserView {
    /// Joules of a typical fetch of `app` now (its median duration and bytes on the current
    /// network), without the radio's wake when a wake is under way.
    public func fetchJoules(of app: AppState, sharedWake: Bool) -> Double {
        Double(app.costs.typical(network: context.network, sharedWake: sharedWake)) / 1_000_000
    }
}
