/// A published peer: EBC, "Every Byte Counts" (Baumann and Santini, IMWUT 2017), mapped onto
/// this engine as docs/policies.md describes.
///
/// At each tick and wake it weighs every app whose content would be stale: its usage
/// probability over the coming tick (the time-of-day table of ``OpenCounts``) against a
/// threshold, its knob, with one strategy per network. On Wi-Fi, every app that clears the
/// threshold is fetched. On cellular, where every byte counts, an app must clear the threshold
/// scaled by its traffic volume against a typical app's (a heavy app needs a likelier open),
/// and the day's cellular bytes so far plus its own must stay within the share of the day's
/// cellular budget that the hours gone by allow. It does nothing at opens.
public struct EBCPolicy: CountingPolicy {
    public var threshold: Double
    package var label: String

    public init(threshold: Double = 0.2, label: String = "ebc") {
        self.threshold = threshold
        self.label = label
    }

    public var name: String { label }
    public func decide(_ point: DecisionPoint, view: UserView, state: inout OpenCounts, decision: inout Decision) {
        switch point {
        case .tick, .timer, .wake: break
        case .open, .contentUpdate: return
        }
        let now = view.now.millis, span = max(view.scenario.tick, Millis.minute)
        let network = view.context.network
        var cellular = view.cellularUsedToday
        for app in view.apps {
            guard case .stale = app.need(at: now, within: span) else { continue }
            let p = state.slotChance(app.id, from: now, span: span, offsetMinutes: view.offsetMinutes)
            switch network {
            case .wifi:
                if p >= threshold { decision.fetches.append(app.id) }
            case .cellular:
                let bytes = app.settings.profile.bytes
                guard p >= threshold * Self.volumeFactor(bytes, typical: view.scenario.defaultApp.profile.bytes),
                      cellular + bytes <= Self.cellularAllowance(view) else { continue }
                cellular += bytes
                decision.fetches.append(app.id)
            case .none:
                return
            }
        }
    }

    /// How much likelier than the threshold an open must be for a fetch of `bytes` on cellular:
    /// the bytes over a typical app's, and never less than once the threshold.
    static func volumeFactor(_ bytes: Int64, typical: Int64) -> Double {
        max(1, Double(max(bytes, 1)) / Double(max(typical, 1)))
    }

    /// The cellular bytes the day allows so far: the budget times the share of the local day gone by.
    static func cellularAllowance(_ view: UserView) -> Int64 {
        let dayStart = view.dayEnd - Millis.day
        let share = Double(view.now.millis - dayStart) / Double(Millis.day)
        // Bounded before the conversion to Int64, whatever the budget and the share.
        return Int64(min(Double(view.cellularBudget) * min(1, max(0, share)), 9e18))
    }
}
