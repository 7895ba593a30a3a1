extension AdaptivePolicy {
    /// Whether `chance`^0.7 may reach `least`: false only where it surely falls short, compared
    /// as chance^7 against least^10 (products, not a power) with a margin for their rounding.
    @inline(__always)
    static func mayReach(_ chance: Double, _ least: Double) -> Bool {
        let c2 = chance * chance, c4 = c2 * c2
        let l2 = least * least, l5 = l2 * l2 * least
        return c4 * c2 * chance * (1 + 1e-6) >= l5 * l5
    }

    /// Whether expected rescues clear the bar a fetch's cost sets.
    @inline(__always)
    static func worth(_ rescues: Double, bar: Double) -> Bool { rescues >= bar }

    /// Whether `app` needs a fetch for an open within `horizon` (``AppState/need(at:within:)``).
    @inline(__always)
    static func need(of app: AppState, at now: Int64, within horizon: Int64) -> Need {
        app.need(at: now, within: horizon)
    }

    /// Expected rescues of fetching `app` now: the chance of an open, that it would find stale
    /// content, that the fetch succeeds, discounted when fetches mostly bring no new data.
    static func value(of app: AppState, chance: Double, stale: Double) -> Double {
        let done = Double(app.newData + app.noData)
        let reliability = (1 + done) / (1 + done + Double(app.failed) + 2 * Double(app.terminated))
        let news = (1 + Double(app.newData)) / (1 + done)
        return chance * stale * reliability * (0.5 + 0.5 * news)
    }

    /// Joules of a typical fetch of `app` now, with cellular bytes priced in joules.
    static func cost(of app: AppState, view: UserView, sharedWake: Bool, megabytePrice: Double) -> Double {
        let joules = view.fetchJoules(of: app, sharedWake: sharedWake)
        return joules + (view.context.network == .cellular ? Double(app.settings.profile.bytes) / 1_000_000 * megabytePrice : 0)
    }
}
