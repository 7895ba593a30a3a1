import FetchCore

extension AwareReader {
    /// Follows each device's screen, battery and network states in time order (rows of one
    /// instant as read) and adds an event where a state changes; a state reported again is
    /// counted as left out. Call once, after the last file.
    public mutating func finish(into log: inout ImportedLog) {
        let order = states.indices.sorted { a, b in
            let (x, y) = (states[a], states[b])
            if x.device != y.device { return x.device < y.device }
            return x.millis != y.millis ? x.millis < y.millis : a < b
        }
        var screen: [String: Bool] = [:]
        var battery: [String: (plugged: Bool, level: Int)] = [:]
        var network: [String: (wifi: Bool, mobile: Bool, airplane: Bool, last: Network?)] = [:]
        for i in order {
            let row = states[i]
            func add(_ kind: EventKind, _ value: String = "") {
                log.append(ImportedRow(user: row.user, millis: row.millis, offsetMinutes: row.minutes, kind: .event(kind, app: "", value: value)))
            }
            switch row.state {
            case .screen(let on):
                if screen[row.device] == on { log.ignore("screen state reported again (an unlock after the screen came on)"); continue }
                screen[row.device] = on
                add(on ? .screenOn : .screenOff)
            case .battery(let plugged, let level):
                let last = battery[row.device]
                if plugged != last?.plugged { add(plugged ? .plugged : .unplugged) }
                if level != last?.level { add(.battery, "\(level)") }
                battery[row.device] = (plugged, level)
            case .network(let type, let on):
                var s = network[row.device] ?? (false, false, false, nil)
                switch type {
                case -1: s.airplane = on
                case 1: s.wifi = on
                default: s.mobile = on
                }
                let now: Network = s.wifi ? .wifi : (s.mobile && !s.airplane ? .cellular : .none)
                if now != s.last { add(.network, now.logName) }
                s.last = now
                network[row.device] = s
            }
        }
        states = []
    }
}
