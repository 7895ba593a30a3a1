extension UserSimulator {
    /// A push from the app's server. A silent one wakes its app for a fetch (the engine still
    /// enforces every hard rule) unless the app had its hourly share of silent pushes already:
    /// then it is held until the next alert push or device wake. An alert push is never
    /// limited and delivers whatever is held.
    func push(_ id: Int32, kind: PushKind) {
        switch kind {
        case .alert:
            tally.pushes.alert += 1
            run.trace?.recordPush(user: user, app: id, time: now, offsetMinutes: Int16(offset), silent: false, fate: .delivered, receivedAt: now)
            deliverHeld()
        case .silent:
            tally.pushes.silent += 1
            if takeSilentSlot(id) {
                tally.pushes.deliveredNow += 1
                run.trace?.recordPush(user: user, app: id, time: now, offsetMinutes: Int16(offset), silent: true, fate: .delivered, receivedAt: now)
                wakeForPush(id)
            } else {
                tally.pushes.held += 1
                heldPushes.append(HeldPush(app: id, receivedAt: now))
                run.trace?.recordPush(user: user, app: id, time: now, offsetMinutes: Int16(offset), silent: true, fate: .held, receivedAt: now)
            }
        }
    }

    /// Delivers every held silent push now (piggybacked on an alert push or a wake); an app
    /// with several held pushes gets one fetch.
    func deliverHeld() {
        guard !heldPushes.isEmpty else { return }
        var woken: [Int32] = []
        for h in heldPushes {
            tally.pushes.deliveredLate += 1
            tally.pushes.delayMs += now - h.receivedAt
            run.trace?.recordPush(user: user, app: h.app, time: now, offsetMinutes: Int16(offset), silent: true,
                                  fate: .deliveredLate, receivedAt: h.receivedAt)
            if !woken.contains(h.app) { woken.append(h.app) }
        }
        heldPushes.removeAll(keepingCapacity: true)
        for app in woken { wakeForPush(app) }
    }

    /// Silent pushes `id` may still receive within the hourly limit now.
    func silentPushesLeft(_ id: Int32) -> Int {
        let recent = silentDeliveries[id]?.reduce(0) { $0 + (now - $1 < Millis.hour ? 1 : 0) } ?? 0
        return max(0, run.scenario.silentPushesPerHour - recent)
    }

    /// Whether a silent push to `id` now is within the per-app hourly limit; if so, counts it.
    private func takeSilentSlot(_ id: Int32) -> Bool {
        let limit = run.scenario.silentPushesPerHour
        var times = silentDeliveries[id] ?? []
        times.removeAll { now - $0 >= Millis.hour }
        guard times.count < limit else {
            silentDeliveries[id] = times
            return false
        }
        times.append(now)
        silentDeliveries[id] = times
        return true
    }

    private func wakeForPush(_ id: Int32) {
        let before = tally.fetches
        request(id, byPush: true)
        if tally.fetches > before { tally.pushes.fetches += 1 }
    }

    /// Held pushes the log ended before delivering: reported, not dropped.
    func closePushes() {
        tally.pushes.undelivered += heldPushes.count
        heldPushes.removeAll()
    }
}

/// A silent push over the rate limit, waiting for an alert push or a wake.
struct HeldPush {
    var app: Int32
    var receivedAt: Int64
}
