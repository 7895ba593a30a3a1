import FetchCore

extension Persona {
    /// The notifications apps post to this persona on one day, derived from the day's own events
    /// and drawn from their own random stream, so a log with notifications has the same other
    /// events as one without.
    ///
    /// Some opens are answers: an open that is not a re-open (none of its app in the ten minutes
    /// before) follows a notification of its app 1–15 minutes earlier, three times in ten. And
    /// every app opened that day posts up to three notifications nobody answers, at any time
    /// between the day's first and last event, as real phones' apps do.
    func notifications(day: Int, seed: UInt64, events own: [GeneratedEvent]) -> [GeneratedEvent] {
        var r = SplitMix64(seed: seed, UInt64(index), 0x6E_6F_74_69, UInt64(day))
        guard let first = own.map(\.time).min(), let last = own.map(\.time).max() else { return [] }
        var out: [GeneratedEvent] = [], lastOpen: [String: Int64] = [:], apps: [String] = []
        func emit(_ time: Int64, _ app: String) {
            out.append(GeneratedEvent(time: time, offsetMinutes: offset, user: index, order: Int32(own.count + out.count),
                                      app: app, kind: .notification, value: ""))
        }
        for e in own.sorted(by: { ($0.time, $0.order) < ($1.time, $1.order) }) where e.kind == .open {
            if !apps.contains(e.app) { apps.append(e.app) }
            let reopen = lastOpen[e.app].map { e.time - $0 < 10 * Millis.minute } ?? false
            lastOpen[e.app] = e.time
            if !reopen && r.chance(0.3) { emit(e.time - Int64((1 + r.unit() * 14) * 60_000), e.app) }
        }
        for app in apps {
            for _ in 0..<r.int(in: 0...3) { emit(first + Int64(r.unit() * Double(last - first)), app) }
        }
        return out
    }
}
