/// The per-app hourly limit on silent pushes, and the pushes held over it until the next
/// alert push or device wake.
struct PushLimiter {
    private(set) var held: [HeldPush] = []
    /// Per app, the silent pushes delivered within the last hour.
    private var deliveries: [Int32: [Int64]] = [:]

    /// Silent pushes `app` may still receive within the hourly `limit` at `now`.
    func left(_ app: Int32, now: Int64, limit: Int) -> Int {
        let recent = deliveries[app]?.reduce(0) { $0 + (now - $1 < Millis.hour ? 1 : 0) } ?? 0
        return max(0, limit - recent)
    }

    /// Whether a silent push to `app` at `now` is within the hourly `limit`; if so, counts it.
    mutating func take(_ app: Int32, now: Int64, limit: Int) -> Bool {
        var times = deliveries[app] ?? []
        times.removeAll { now - $0 >= Millis.hour }
        guard times.count < limit else {
            deliveries[app] = times
            return false
        }
        times.append(now)
        deliveries[app] = times
        return true
    }

    mutating func hold(_ p: HeldPush) { held.append(p) }

    /// Removes and returns every held push.
    mutating func release() -> [HeldPush] {
        defer { held = [] }
        return held
    }
}

/// A silent push over the rate limit, waiting for an alert push or a wake.
struct HeldPush {
    var app: Int32
    var receivedAt: Int64
}
