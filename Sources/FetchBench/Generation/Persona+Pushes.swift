import FetchCore

extension Persona {
    /// The pushes app servers send this persona on one day, in time order. Drawn from their own
    /// random stream, so a log with pushes has the same other events as one without.
    ///
    /// News sends a silent push at each content update, every 30–90 minutes while the user is
    /// awake, and on half the days a breaking-news burst of four within eight minutes (over the
    /// hourly limit); chat sends 4–10 alert pushes (messages) and 2–4 silent syncs; mail a
    /// silent push about every two hours, day and night.
    func pushes(day: Int, localDay: Int64, seed: UInt64, firstOrder: Int32) -> [GeneratedEvent] {
        var r = SplitMix64(seed: seed, UInt64(index), 0x70_75_73_68, UInt64(day))
        let midnight = LocalTime.start(ofDay: localDay, offsetMinutes: Int(offset))
        var out: [GeneratedEvent] = []
        func emit(_ minute: Double, _ app: String, _ kind: PushKind) {
            out.append(GeneratedEvent(time: midnight + Int64(minute * 60_000), offsetMinutes: offset, user: index,
                                      order: firstOrder + Int32(out.count), app: app, kind: .push,
                                      value: kind == .silent ? "silent" : "alert"))
        }
        let awake = Double(wake), asleep = Double(bed)
        var m = awake + r.unit() * 60
        while m < asleep {
            emit(m, "com.example.news", .silent)
            m += 30 + r.unit() * 60
        }
        if r.chance(0.5) {
            let start = awake + r.unit() * (asleep - awake - 10)
            for k in 0..<4 { emit(start + Double(k) * 2 + r.unit(), "com.example.news", .silent) }
        }
        for _ in 0..<r.int(in: 4...10) { emit(awake + r.unit() * (asleep - awake), "com.example.chat", .alert) }
        for _ in 0..<r.int(in: 2...4) { emit(awake + r.unit() * (asleep - awake), "com.example.chat", .silent) }
        var mail = r.unit() * 120
        while mail < 1440 {
            emit(mail, "com.example.mail", .silent)
            mail += 90 + r.unit() * 60
        }
        out.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        return out
    }
}
