import FetchCore

extension Persona {
    /// This persona's events of one day, in time order.
    mutating func events(day: Int, localDay: Int64) -> [GeneratedEvent] {
        let weekday = LocalTime.weekday(ofDay: localDay)
        let weekend = weekday >= 5
        let midnight = LocalTime.start(ofDay: localDay, offsetMinutes: Int(offset))
        let moved = habitMovesOn.map { day >= $0 } ?? false
        let wakeToday = wake + (weekend ? 90 : 0) - (moved ? 60 : 0)
        var out: [GeneratedEvent] = []
        let offset = self.offset, user = self.index
        func at(_ minute: Double) -> Int64 { midnight + Int64(minute * 60_000) }
        func emit(_ t: Int64, _ kind: EventKind, _ app: String = "", _ value: String = "") {
            out.append(GeneratedEvent(time: t, offsetMinutes: offset, user: user, order: Int32(out.count),
                                      app: app, kind: kind, value: value))
        }
        var opens = plannedOpens(weekend: weekend, wake: wakeToday, moved: moved).map { (at($0.minute), $0.app) }
        opens.sort { $0.0 < $1.0 }
        // Network: home Wi-Fi, cellular on the way, work Wi-Fi (commuters on weekdays).
        var network: [(Int64, String)] = [(at(Double(wakeToday)), "wifi")]
        if commuter && !weekend {
            let leave = Double(wakeToday + 50), back = Double(17 * 60 + rng.int(in: 0...60))
            network += [(at(leave), "cellular"), (at(leave + 40), "wifi"), (at(back), "cellular"), (at(back + 40), "wifi")]
            if subwayGap { network += [(at(leave + 15), "none"), (at(leave + 22), "cellular")] }
        } else if rng.chance(0.7) {
            let out = Double(rng.int(in: 600...1080))
            network += [(at(out), "cellular"), (at(out + Double(rng.int(in: 30...120))), "wifi")]
        }
        for (t, v) in network.sorted(by: { $0.0 < $1.0 }) { emit(t, .network, "", v) }
        // Charging at night (plugged at bed, unplugged at wake) or in the evening.
        let unplug = at(Double(wakeToday) - 5), plugAt = chargesAtNight ? at(Double(bed)) : at(Double(rng.int(in: 1140...1230)))
        if chargesAtNight || day == 0 { battery = 100 }
        emit(unplug, .unplugged)
        emit(unplug, .battery, "", "\(Int(battery))")
        var lowPower = false
        var hour = Double(wakeToday / 60 + 1) * 60
        while at(hour) < plugAt {
            battery = max(3, battery - drainPerHour)
            emit(at(hour), .battery, "", "\(Int(battery))")
            if lowPowerAuto && !lowPower && battery < 20 { emit(at(hour), .lowPower, "", "on"); lowPower = true }
            hour += 60
        }
        emit(plugAt, .plugged)
        if lowPower { emit(plugAt, .lowPower, "", "off") }
        if !chargesAtNight {
            battery = min(100, battery + 60)
            emit(plugAt + 90 * 60_000, .battery, "", "\(Int(battery))")
            emit(plugAt + 90 * 60_000, .unplugged)
        }
        sessions(opens, emit: emit)
        out.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        return out
    }

    /// Opens grouped into sessions: screen_on a few seconds before, screen_off after.
    private mutating func sessions(_ opens: [(Int64, String)], emit: (Int64, EventKind, String, String) -> Void) {
        var i = 0
        while i < opens.count {
            var j = i
            while j + 1 < opens.count && opens[j + 1].0 - opens[j].0 < 5 * 60_000 { j += 1 }
            emit(opens[i].0 - Int64(rng.int(in: 3_000...25_000)), .screenOn, "", "")
            for k in i...j { emit(opens[k].0, .open, opens[k].1, "") }
            emit(opens[j].0 + Int64(rng.int(in: 30_000...240_000)), .screenOff, "", "")
            i = j + 1
        }
    }

    /// The day's opens from the persona's habits, in minutes after midnight.
    private mutating func plannedOpens(weekend: Bool, wake: Int, moved: Bool) -> [(minute: Double, app: String)] {
        var opens: [(minute: Double, app: String)] = []
        func jitter(_ m: Int, _ spread: Int) -> Double { Double(m) + (rng.unit() * 2 - 1) * Double(spread) }
        func add(_ m: Double, _ app: String, burst: Bool = true) {
            opens.append((m, app))
            if burst && rng.chance(0.35) {
                var t = m
                for _ in 0..<rng.int(in: 1...3) { t += 1 + rng.unit() * 4; opens.append((t, app)) }
            }
        }
        if !weekend || !newsWeekdayOnly {
            let news = weekend ? wake + 40 : 450 - (moved ? 60 : 0)
            let t = jitter(news, 8)
            add(t, "com.example.news")
            if rng.chance(0.5) { add(t + 0.5 + rng.unit(), "com.example.social", burst: false) }
        }
        if weatherChecker { add(Double(wake) + 2 + rng.unit() * 8, "com.example.weather", burst: false) }
        if hourlyChecker {
            var t = Double(wake) + rng.unit() * 30
            while t < Double(bed) { add(t, "com.example.chat"); t += 55 + rng.unit() * 15 }
        }
        if commuter && !weekend {
            add(jitter(wake + 45, 3), "com.example.transit", burst: false)
            add(jitter(17 * 60 + 25, 20), "com.example.transit", burst: false)
            if podcaster { add(jitter(wake + 52, 2), "com.example.podcast", burst: false) }
            add(jitter(8 * 60 + 45, 10), "com.example.mail")
            add(jitter(13 * 60 + 15, 10), "com.example.mail")
        }
        if eveningReader { add(Double(rng.int(in: 1260...1350)), "com.example.reader") }
        if weekendShift && weekend { add(jitter(405, 5), "com.example.shift") }
        for _ in 0..<rng.int(in: 6...10) { add(Double(wake) + rng.unit() * Double(bed - wake), "com.example.social") }
        let noise = ["com.example.shop", "com.example.bank", "com.example.video", "com.example.games", "com.example.photos"]
        for _ in 0..<rng.int(in: 1...4) {
            add(Double(wake) + rng.unit() * Double(bed - wake), noise[rng.int(in: 0...(noise.count - 1))], burst: false)
        }
        return opens.filter { $0.minute > Double(wake) - 10 && $0.minute < Double(bed) + 20 }
    }
}
