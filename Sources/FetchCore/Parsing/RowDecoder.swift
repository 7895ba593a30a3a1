/// Turns the five fields of a log row into a ``UsageEvent``, interning user and app names.
///
/// Shared by the CSV and JSON Lines readers so both accept and reject exactly the same rows.
public struct RowDecoder {
    public let users: NameTable
    public let apps: NameTable
    /// The day of the last timestamp read: a log's rows come in time order, so most rows repeat it.
    private var lastDay = TimestampParser.DayCache()

    public init(users: NameTable = NameTable(), apps: NameTable = NameTable()) {
        self.users = users
        self.apps = apps
    }

    public typealias Field = UnsafeBufferPointer<UInt8>

    public mutating func decode(timestamp: Field, user: Field, app: Field, event: Field, value: Field) throws(RowProblem) -> UsageEvent {
        guard !timestamp.isEmpty else { throw RowProblem(.missingField, "missing field 'timestamp'", field: "timestamp") }
        guard !user.isEmpty else { throw RowProblem(.missingField, "missing field 'user'", field: "user") }
        guard !event.isEmpty else { throw RowProblem(.missingField, "missing field 'event'", field: "event") }
        guard let kind = Self.kind(event) else {
            throw RowProblem(.unknownEvent, "unknown event '\(InputBounds.printable(event))' (expected one of \(EventKind.allCases.map(\.logName).joined(separator: ", ")))", field: "event")
        }
        let ts = try TimestampParser.parse(timestamp, lastDay: &lastDay)
        var e = UsageEvent(time: Instant(millis: ts.millis), user: try Self.intern(user, in: users, field: "user"), kind: kind,
                           offsetMinutes: ts.offsetMinutes, unixForm: ts.unixForm)
        if kind.isAppEvent {
            guard !app.isEmpty else { throw RowProblem(.missingField, "missing field 'app' for event '\(kind.logName)'", field: "app") }
            e.app = try Self.intern(app, in: apps, field: "app")
        } else if !app.isEmpty {
            throw RowProblem(.badValue, "event '\(kind.logName)' is a device event and must leave 'app' empty", field: "app")
        }
        e.value = try Self.value(kind, value)
        return e
    }

    /// The id of a name, checked against ``InputBounds`` when first seen: a table holds only
    /// good names, so a name met again needs no second look (this runs on every row).
    static func intern(_ name: Field, in table: NameTable, field: String) throws(RowProblem) -> Int32 {
        if let id = table.existingID(bytes: name) { return id }
        if let problem = InputBounds.nameProblem(name) { throw RowProblem(.badValue, "field '\(field)' \(problem)", field: field) }
        return table.id(bytes: name)
    }

    /// Decodes five fields held as byte arrays (quoted CSV fields, JSON Lines values).
    public mutating func decode(fields f: [[UInt8]]) throws(RowProblem) -> UsageEvent {
        try f[0].withUnsafeBufferPointer { (t) throws(RowProblem) in
            try f[1].withUnsafeBufferPointer { (u) throws(RowProblem) in
                try f[2].withUnsafeBufferPointer { (a) throws(RowProblem) in
                    try f[3].withUnsafeBufferPointer { (e) throws(RowProblem) in
                        try f[4].withUnsafeBufferPointer { (v) throws(RowProblem) in
                            try decode(timestamp: t, user: u, app: a, event: e, value: v)
                        }
                    }
                }
            }
        }
    }

    /// The event kind a field names: the length and first byte pick the one candidate, as
    /// this runs on every row (a loop over every kind's name showed in profiles).
    static func kind(_ b: Field) -> EventKind? {
        guard b.count >= 4 else { return nil }
        let candidate: EventKind
        switch (b.count, b[0]) {
        case (4, UInt8(ascii: "o")): candidate = .open
        case (4, UInt8(ascii: "p")): candidate = .push
        case (7, UInt8(ascii: "p")): candidate = .plugged
        case (7, UInt8(ascii: "b")): candidate = .battery
        case (7, UInt8(ascii: "n")): candidate = .network
        case (8, UInt8(ascii: "l")): candidate = b[2] == UInt8(ascii: "w") ? .lowPower : .location
        case (9, UInt8(ascii: "s")): candidate = .screenOn
        case (9, UInt8(ascii: "u")): candidate = .unplugged
        case (10, UInt8(ascii: "s")): candidate = .screenOff
        case (12, UInt8(ascii: "n")): candidate = .notification
        default: return nil
        }
        return equals(b, candidate.logBytes) ? candidate : nil
    }

    static func value(_ kind: EventKind, _ v: Field) throws(RowProblem) -> Int16 {
        let text = { InputBounds.printable(v) }
        switch kind {
        case .battery:
            guard !v.isEmpty else { throw RowProblem(.missingField, "missing field 'value' for event 'battery' (a level 0-100)", field: "value") }
            var level = 0
            for c in v {
                guard c >= 48 && c <= 57, level <= 100 else { throw RowProblem(.badValue, "battery value '\(text())' is not a level 0-100", field: "value") }
                level = level * 10 + Int(c - 48)
            }
            guard level <= 100 else { throw RowProblem(.badValue, "battery value '\(text())' is not a level 0-100", field: "value") }
            return Int16(level)
        case .network:
            guard !v.isEmpty else { throw RowProblem(.missingField, "missing field 'value' for event 'network' (wifi, cellular or none)", field: "value") }
            for n in Network.allCases where equals(v, n.logBytes) { return n.rawValue }
            throw RowProblem(.badValue, "network value '\(text())' is not wifi, cellular or none", field: "value")
        case .lowPower:
            if equals(v, "on") { return 1 }
            if equals(v, "off") { return 0 }
            if v.isEmpty { throw RowProblem(.missingField, "missing field 'value' for event 'lowpower' (on or off)", field: "value") }
            throw RowProblem(.badValue, "lowpower value '\(text())' is not on or off", field: "value")
        case .push:
            if equals(v, "silent") { return PushKind.silent.rawValue }
            if equals(v, "alert") { return PushKind.alert.rawValue }
            if v.isEmpty { throw RowProblem(.missingField, "missing field 'value' for event 'push' (silent or alert)", field: "value") }
            throw RowProblem(.badValue, "push value '\(text())' is not silent or alert", field: "value")
        case .open, .screenOn, .screenOff, .plugged, .unplugged, .location, .notification:
            guard v.isEmpty else { throw RowProblem(.badValue, "event '\(kind.logName)' takes no value, got '\(text())'", field: "value") }
            return 0
        }
    }

    @inline(__always)
    static func equals(_ b: Field, _ s: StaticString) -> Bool {
        s.utf8CodeUnitCount == b.count && (b.isEmpty || Bytes.equal(s.utf8Start, b.baseAddress!, count: b.count))
    }
}
