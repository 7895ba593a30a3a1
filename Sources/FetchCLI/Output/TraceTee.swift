import FetchCore

/// Hands every trace row, open and push to each of several sinks, in order.
final class TraceTee: TraceSink {
    let sinks: [any TraceSink]

    init(_ sinks: [any TraceSink]) { self.sinks = sinks }

    /// The one sink, or a tee of several; nil for none.
    static func of(_ sinks: [(any TraceSink)?]) -> (any TraceSink)? {
        let present = sinks.compactMap { $0 }
        return present.count > 1 ? TraceTee(present) : present.first
    }

    func record(_ row: TraceRow) { for s in sinks { s.record(row) } }

    func recordOpen(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, fresh: Bool, rescued: Bool) {
        for s in sinks { s.recordOpen(user: user, app: app, time: time, offsetMinutes: offsetMinutes, fresh: fresh, rescued: rescued) }
    }

    func recordPush(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, silent: Bool, fate: PushFate, receivedAt: Int64) {
        for s in sinks {
            s.recordPush(user: user, app: app, time: time, offsetMinutes: offsetMinutes, silent: silent, fate: fate, receivedAt: receivedAt)
        }
    }
}
