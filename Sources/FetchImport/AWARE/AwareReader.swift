import FetchCore

/// Reads AWARE's tables: `applications_foreground`, `applications_notifications`, `screen`,
/// `battery`, `network`, and `timezone` (which gives each device's UTC offset over time), as AWARE exports them to CSV,
/// as tools re-export them, or as rows of a MySQL dump (``AwareDump``).
///
/// Each file is one table, known by its columns, in any order. The time is `timestamp` or
/// `time`, in Unix milliseconds or seconds: the first row of a file decides (``TimeUnit``), and a
/// later row in the other unit is refused. The device is `device_id` or `device` (or, with
/// neither, `user`). Each device is a user, unless one user name is given for all. Battery and
/// network rows report states; only changes become events.
public struct AwareReader: Sendable {
    public enum Table: String, Sendable, CaseIterable {
        case foreground = "applications_foreground", screen, battery, network, timezone, notifications = "applications_notifications"
    }

    /// The unit of a file's times, decided by its first row: a time below 10^11 is seconds
    /// (10^11 s is past the year 5000), any other milliseconds (10^11 ms is March 1973).
    public enum TimeUnit: String, Sendable {
        case milliseconds, seconds

        static func of(_ value: Double) -> TimeUnit { value < 1e11 ? .seconds : .milliseconds }
    }

    public let user: String?
    public let offset: UTCOffsetRule?
    /// Looks up an IANA zone name from the timezone table; nil when unknown.
    public let zone: @Sendable (String) -> UTCOffsetRule?
    private var table: Table?
    private var columns: [String: Int] = [:]
    /// The names of the current file's time and device columns (nil: no device column).
    private var timeColumn = "timestamp", deviceColumn: String? = "device_id"
    /// The current file's time unit, once its first row is read.
    public private(set) var unit: TimeUnit?
    private var zones: [String: [(from: Int64, rule: UTCOffsetRule)]] = [:]
    /// The rows of the tables that report states (screen, battery, network), kept until
    /// ``finish(into:)`` follows each device's states in time order, whatever the files' order.
    var states: [StateRow] = []

    enum State {
        case screen(on: Bool)
        case battery(plugged: Bool, level: Int)
        case network(type: Int, on: Bool)
    }

    struct StateRow {
        var user: String, device: String, millis: Int64, minutes: Int, state: State
    }

    public init(user: String?, offset: UTCOffsetRule?, zone: @escaping @Sendable (String) -> UTCOffsetRule?) throws(ImportProblem) {
        self.user = try user.map { name throws(ImportProblem) in try ImportFields.name(name, "user") }
        self.offset = offset
        self.zone = zone
    }

    /// The reason of the problem a file of another table is: it stops an import even when
    /// rows are skipped.
    public static let unknownTable = "unknown table"

    /// The table a header names, or nil.
    public static func table(header: Substring) -> Table? {
        guard let names = try? CSVFields.split(header) else { return nil }
        return table(columns: Set(names))
    }

    /// The table whose columns these are, or nil: a time column and the table's own columns.
    /// Other AWARE tables have a `package_name` too (installations); the foreground table alone
    /// has `is_system_app`, the notifications table alone `sound` and `vibrate`.
    public static func table(columns names: Set<String>) -> Table? {
        guard names.contains("timestamp") || names.contains("time") else { return nil }
        if names.contains("timezone_id") || names.contains("tzcode") { return .timezone }
        if names.isSuperset(of: ["package_name", "is_system_app"]) { return .foreground }
        if names.isSuperset(of: ["package_name", "sound", "vibrate"]) { return .notifications }
        if names.contains("screen_status") { return .screen }
        if names.isSuperset(of: ["battery_status", "battery_level", "battery_adaptor"]) { return .battery }
        if names.isSuperset(of: ["network_type", "network_state"]) { return .network }
        return nil
    }

    /// The tables this reads, for a message.
    static var tableNames: String { Table.allCases.map(\.rawValue).joined(separator: ", ") }

    /// Starts a file: its first line must be the header of a table this reader knows.
    public mutating func begin(header: Substring) throws(ImportProblem) {
        if header.hasPrefix("\u{FEFF}") {
            throw ImportProblem(Self.unknownTable, "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one")
        }
        if let cr = header.firstIndex(of: "\r"), header.index(after: cr) < header.endIndex {
            throw ImportProblem(Self.unknownTable, "the file's lines end in a carriage return alone (CR, as classic Mac OS wrote them): "
                                + "convert them to LF or CRLF")
        }
        guard let names = try? CSVFields.split(header), Self.table(columns: Set(names)) != nil else {
            throw ImportProblem(Self.unknownTable, "not the header of an AWARE table this reads (\(Self.tableNames)): "
                + "'\(InputBounds.printable(String(header)))'")
        }
        try begin(columns: names)
    }

    /// Starts a table whose rows have these columns, in this order.
    public mutating func begin(columns names: [String]) throws(ImportProblem) {
        guard let t = Self.table(columns: Set(names)) else {
            throw ImportProblem(Self.unknownTable, "not the columns of an AWARE table this reads (\(Self.tableNames)): "
                + "\(InputBounds.printable(names.joined(separator: ",")))")
        }
        // A column twice, or two names of one column, would leave which one counts to chance.
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            throw ImportProblem("ambiguous columns", "the header names the column '\(InputBounds.printable(name))' twice: say which counts")
        }
        for synonyms in [["timestamp", "time"], ["device_id", "device"], ["timezone_id", "tzcode"]] where synonyms.allSatisfy(seen.contains) {
            throw ImportProblem("ambiguous columns", "the header has both \(synonyms.map { "'\($0)'" }.joined(separator: " and ")), "
                                + "two names of one column: keep one")
        }
        columns = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        timeColumn = columns["timestamp"] != nil ? "timestamp" : "time"
        deviceColumn = columns["device_id"] != nil ? "device_id" : columns["device"] != nil ? "device" : nil
        guard deviceColumn != nil || columns["user"] != nil || user != nil else {
            throw ImportProblem("no device", "the table has no device_id, device or user column: give --user to name the person")
        }
        table = t
        unit = nil
    }

    /// Reads one data line of the current file.
    public mutating func read(_ line: Substring, into log: inout ImportedLog) throws(ImportProblem) {
        if line.allSatisfy({ $0 == "\r" }) { return }
        try read(fields: try CSVFields.split(line), into: &log)
    }

    /// Reads one row of the current table, its fields in the order of its columns.
    public mutating func read(fields f: [String], into log: inout ImportedLog) throws(ImportProblem) {
        guard let table else { throw ImportProblem("bad header", "no header line") }
        func field(_ name: String) throws(ImportProblem) -> String {
            guard let i = columns[name], i < f.count else { throw ImportProblem("missing field", "the row has no \(name)") }
            return f[i]
        }
        let millis = try time(try field(timeColumn))
        // A device is a phone, scheduled on its own: a person's two phones are two users. A
        // `user` column stands for the device only where there is no device column.
        let column = deviceColumn ?? (columns["user"] != nil ? "user" : nil)
        // Without either column, `begin` has made sure one name is given for all.
        let device = try column.map { c throws(ImportProblem) in try ImportFields.name(try field(c), c) } ?? user!
        let name = user ?? device
        if table == .timezone {
            // `timezone_id` in AWARE's own table, `tzcode` in another layout in use: a zone's
            // name, or a fixed offset such as +01:00.
            let id = try field(columns["timezone_id"] == nil ? "tzcode" : "timezone_id")
            guard id.utf8.count <= 64, let rule = zone(id) ?? UTCOffsetRule.parseOffset(id).map(UTCOffsetRule.fixed(minutes:)) else {
                throw ImportProblem("unknown time zone", "unknown time zone '\(InputBounds.printable(id))'")
            }
            addZone(rule, from: millis, device: device)
            return
        }
        let minutes = try offsetMinutes(device: device, at: millis)
        func keep(_ state: State) { states.append(StateRow(user: name, device: device, millis: millis, minutes: minutes, state: state)) }
        switch table {
        case .timezone: break
        case .foreground:
            let app = try ImportFields.name(try field("package_name"), "package_name")
            log.append(ImportedRow(user: name, millis: millis, offsetMinutes: minutes, kind: .foreground(app: app)))
        case .notifications:
            // A notification the app posted (AWARE records those shown to the user).
            let app = try ImportFields.name(try field("package_name"), "package_name")
            log.append(ImportedRow(user: name, millis: millis, offsetMinutes: minutes, kind: .event(.notification, app: app, value: "")))
        case .screen:
            // Android: 0 off, 1 on, 2 locked, 3 unlocked; AWARE on iOS writes only 2 and 3. An
            // unlock is a screen_on as the screen coming on is; the second of the two is a repeat.
            keep(.screen(on: [1, 3].contains(try ImportFields.int(try field("screen_status"), "screen_status", in: 0...3))))
        case .battery:
            // Android's BatteryManager codes 1 to 5, and AWARE's own for power events: -1 shutdown,
            // -2 reboot, -3 booted (its Battery sensor's STATUS_PHONE_*); their rows carry the
            // level and adaptor as the others do.
            let status = try ImportFields.int(try field("battery_status"), "battery_status", in: -3...5)
            // Re-exports may leave the scale out (niimpy does): the level is then a percentage.
            let scale = try columns["battery_scale"] == nil ? 100 : ImportFields.int(try field("battery_scale"), "battery_scale", in: 0...10_000)
            let raw = try ImportFields.int(try field("battery_level"), "battery_level", in: 0...max(100, scale))
            let adaptor = try ImportFields.int(try field("battery_adaptor"), "battery_adaptor", in: 0...8)
            // AWARE on iOS writes no adaptor (always 0) and the battery state in Android's codes:
            // 2 charging, 5 full (plugged in at 100%), 4 unplugged. Charging means power on Android too.
            keep(.battery(plugged: adaptor > 0 || status == 2 || status == 5, level: scale > 0 ? raw * 100 / scale : raw))
        case .network:
            let type = try ImportFields.int(try field("network_type"), "network_type", in: -1...5)
            let on = try ImportFields.int(try field("network_state"), "network_state", in: 0...1) == 1
            if [-1, 1, 4, 5].contains(type) { keep(.network(type: type, on: on)) } else { log.ignore("network type \(type) (bluetooth or GPS)") }
        }
    }

    /// A row's time in Unix milliseconds, in the file's unit (the first row's decides it).
    private mutating func time(_ text: String) throws(ImportProblem) -> Int64 {
        guard ImportFields.isDecimal(text, fraction: true, digits: 9), text.utf8.count <= 24, let value = Double(text) else {
            throw ImportProblem("bad time", "\(timeColumn) '\(InputBounds.printable(text))' is not Unix milliseconds or seconds")
        }
        let found = TimeUnit.of(value)
        // A zero is the same instant in either unit, and no evidence of one (RAPIDS' timezone
        // table starts with a 0): the first other row decides.
        if value != 0 {
            guard unit == nil || unit == found else {
                throw ImportProblem("mixed time units", "\(timeColumn) '\(InputBounds.printable(text))' reads as \(found.rawValue), "
                                    + "but the file's first timed row gave \(unit!.rawValue)")
            }
            unit = found
        }
        let millis = found == .seconds ? (value * 1000).rounded() : value.rounded()
        guard millis >= Double(InputBounds.timestamps.lowerBound), millis < Double(InputBounds.timestamps.upperBound) else {
            throw ImportProblem("bad time", "\(timeColumn) '\(InputBounds.printable(text))' is not a time between 1970 and 2100")
        }
        return Int64(millis)
    }

    /// Keeps a device's timezone changes in time order whatever the table's order, so that
    /// `offsetMinutes` can binary-search them; a table in order appends.
    private mutating func addZone(_ rule: UTCOffsetRule, from millis: Int64, device: String) {
        var changes = zones.removeValue(forKey: device) ?? []
        if let last = changes.last, last.from > millis {
            let at = changes.firstIndex { $0.from > millis } ?? changes.endIndex
            changes.insert((millis, rule), at: at)
        } else {
            changes.append((millis, rule))
        }
        zones[device] = changes
    }

    /// The device's offset from the timezone table (the latest change before the row, else its
    /// first), else the one given for all.
    private func offsetMinutes(device: String, at millis: Int64) throws(ImportProblem) -> Int {
        if let changes = zones[device], let first = changes.first {
            // Changes are kept in time order (see `read`): the last one at or before the row.
            var low = 0, high = changes.count
            while low < high { let mid = (low + high) / 2; if changes[mid].from <= millis { low = mid + 1 } else { high = mid } }
            let rule = low > 0 ? changes[low - 1].rule : first.rule
            return rule.offsetAt(millis)
        }
        if let offset { return offset.offsetAt(millis) }
        throw ImportProblem("no offset", "no UTC offset for device '\(device)': give a timezone table, --utc-offset or --time-zone")
    }
}
