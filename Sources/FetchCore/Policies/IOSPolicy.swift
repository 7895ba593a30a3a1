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
package struct IOSPolicy: FetchPolicy {
    package let topApps: Int
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
        let now = view.now.millis, apps = view.apps
        // Ranked by index into the view, on the stack: this runs at every tick of every user,
        // and ranking copies of the apps' states cost more than the rest of the decision.
        withUnsafeTemporaryAllocation(of: Candidate.self, capacity: apps.count) { buffer in
            var n = 0
            for i in apps.indices where apps[i].settings.interval != .never {
                let opens = state.apps.allOpens(apps[i].id)
                if opens > 0 {
                    buffer.initializeElement(at: n, to: Candidate(opens: opens, id: apps[i].id, index: i))
                    n += 1
                }
            }
            var ranked = UnsafeMutableBufferPointer(rebasing: buffer[..<n])
            ranked.sort { $0.opens != $1.opens ? $0.opens > $1.opens : $0.id < $1.id }
            for c in ranked.prefix(topApps) {
                let last = apps[c.index].lastFetchStart
                if last != .min && now - last < Millis.hour { continue }
                if apps[c.index].terminated > 0 && last != .min && now - last < Millis.day,
                   apps[c.index].lastFetchWasTerminated { continue }
                let p = state.openProbability(c.id, from: now, span: Millis.hour, offsetMinutes: view.offsetMinutes)
                if p >= threshold { decision.fetches.append(c.id) }
            }
            _ = ranked.deinitialize()
        }
    }
}

extension IOSPolicy {
    /// An app in the running for a tick's fetches: its weighted opens, and where the view has it.
    struct Candidate {
        var opens: Float
        var id: Int32
        var index: Int
    }
}
