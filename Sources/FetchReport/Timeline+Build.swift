import FetchCore
extension Timeline {
    /// The timeline of `user` on local day `day` (or the user's day with the most opens), from
    /// the user's log events and each policy's recorder; nil when the user has no events.
    public static func build(user: String, events: [UsageEvent], day requested: Int64?,
                             recorders: [(policy: String, recorder: TimelineRecorder)]) -> Timeline? {
        guard let firstEvent = events.first else { return nil }
        var t = Timeline(user: user)
        let dayOf = { (e: UsageEvent) in LocalTime.day(e.time.millis, offsetMinutes: Int(e.offsetMinutes)) }
        if let requested {
            t.day = requested
        } else {
            var opens: [Int64: Int] = [:]
            for e in events where e.kind == .open { opens[dayOf(e), default: 0] += 1 }
            t.day = opens.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? dayOf(firstEvent)
        }
        t.offsetMinutes = Int((events.first { dayOf($0) == t.day } ?? firstEvent).offsetMinutes)
        let start = LocalTime.start(ofDay: t.day, offsetMinutes: t.offsetMinutes), end = start + Millis.day
        for e in events where e.time.millis < start { t.startContext.apply(e) }
        t.events = events.filter { $0.time.millis >= start && $0.time.millis < end }
        t.policies = recorders.map(\.policy)
        for (policy, r) in recorders {
            t.opens[policy] = r.opens.filter { $0.time >= start && $0.time < end }
            t.fetches[policy] = r.fetches.filter { $0.time >= start && $0.time < end }
        }
        return t
    }
}
