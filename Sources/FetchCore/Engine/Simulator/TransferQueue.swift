/// Discretionary background transfers handed over by fetches: each runs only on Wi-Fi (and
/// only while charging if its profile says so), with no 30-second limit.
struct TransferQueue {
    private(set) var items: [Transfer] = []
    /// When the next running transfer completes, `.max` when none runs.
    private(set) var nextDone: Int64 = .max

    var isEmpty: Bool { items.isEmpty }

    mutating func add(_ t: Transfer, now: Int64, context: DeviceContext, rate: Int64) {
        items.append(t)
        update(now: now, context: context, rate: rate)
    }

    /// Starts the transfers the context now allows and pauses those it no longer does; then
    /// finds the next completion.
    mutating func update(now: Int64, context: DeviceContext, rate: Int64) {
        var next = Int64.max
        for k in items.indices {
            let allowed = context.network == .wifi && (!items[k].needsCharging || context.charging)
            if let since = items[k].runningSince, !allowed {
                items[k].bytesLeft = max(0, items[k].bytesLeft - (now - since) * rate / 1000)
                items[k].runningSince = nil
            } else if items[k].runningSince == nil && allowed {
                items[k].runningSince = now
            }
            if let done = items[k].doneAt(rate: rate) { next = min(next, done) }
        }
        nextDone = next
    }

    /// Removes and returns the transfers complete by `now`, in the order they were handed over;
    /// call ``update(now:context:rate:)`` after.
    mutating func takeDone(now: Int64, rate: Int64) -> [Transfer] {
        var done: [Transfer] = []
        items.removeAll { t in
            guard let end = t.doneAt(rate: rate), end <= now else { return false }
            done.append(t)
            return true
        }
        return done
    }

    /// The transfers the log ended before completing: counted as pending, then dropped.
    mutating func drop() -> Int {
        defer { items.removeAll() }
        return items.count
    }
}

/// A discretionary background transfer handed over by a fetch.
struct Transfer {
    /// The app's index in the engine's state.
    var app: Int
    var contentTime: Int64
    var handedOverAt: Int64
    var bytes: Int64
    var bytesLeft: Int64
    var needsCharging: Bool
    /// When it last started running, nil while it waits.
    var runningSince: Int64? = nil

    /// When it completes if it keeps running at `rate` bytes per second; nil while it waits.
    func doneAt(rate: Int64) -> Int64? {
        runningSince.map { $0 + (bytesLeft * 1000 + rate - 1) / rate }
    }
}
