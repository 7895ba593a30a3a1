extension UserSimulator {
    /// A push from the app's server. A silent one wakes its app for a fetch (the engine still
    /// enforces every hard rule) unless the app had its hourly share of silent pushes already:
    /// then it is held until the next alert push or device wake. An alert push is never
    /// limited and delivers whatever is held.
    func push(_ id: Int32, kind: PushKind) {
        let now = state.now
        switch kind {
        case .alert:
            state.tally.pushes.alert += 1
            tracePush(id, silent: false, fate: .delivered, receivedAt: now)
            deliverHeld()
        case .silent:
            state.tally.pushes.silent += 1
            if state.pushes.take(id, now: now, limit: run.scenario.silentPushesPerHour) {
                state.tally.pushes.deliveredNow += 1
                tracePush(id, silent: true, fate: .delivered, receivedAt: now)
                wakeForPush(id)
            } else {
                state.tally.pushes.held += 1
                state.pushes.hold(HeldPush(app: id, receivedAt: now))
                tracePush(id, silent: true, fate: .held, receivedAt: now)
            }
        }
    }

    /// Delivers every held silent push now (piggybacked on an alert push or a wake); an app
    /// with several held pushes gets one fetch.
    func deliverHeld() {
        guard !state.pushes.held.isEmpty else { return }
        var woken: [Int32] = []
        for h in state.pushes.release() {
            state.tally.pushes.deliveredLate += 1
            state.tally.pushes.delayMs += state.now - h.receivedAt
            tracePush(h.app, silent: true, fate: .deliveredLate, receivedAt: h.receivedAt)
            if !woken.contains(h.app) { woken.append(h.app) }
        }
        for app in woken { wakeForPush(app) }
    }

    /// Silent pushes `id` may still receive within the hourly limit now.
    func silentPushesLeft(_ id: Int32) -> Int {
        state.pushes.left(id, now: state.now, limit: run.scenario.silentPushesPerHour)
    }

    private func wakeForPush(_ id: Int32) {
        let before = state.tally.fetches
        request(id, byPush: true)
        if state.tally.fetches > before { state.tally.pushes.fetches += 1 }
    }

    private func tracePush(_ id: Int32, silent: Bool, fate: PushFate, receivedAt: Int64) {
        run.trace?.recordPush(user: user, app: id, time: state.now, offsetMinutes: Int16(state.offset), silent: silent,
                              fate: fate, receivedAt: receivedAt)
    }

    /// Held pushes the log ended before delivering: reported, not dropped.
    func closePushes() {
        state.tally.pushes.undelivered += state.pushes.release().count
    }
}
