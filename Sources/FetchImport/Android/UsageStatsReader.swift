import FetchCore

/// Reads Android usage statistics: the text of `adb shell dumpsys usagestats`, or a CSV of
/// UsageStatsManager events exported by an app (`timestamp,package,event_type`).
///
/// The dump prints local wall-clock times without an offset (`time="2024-03-11 14:26:15"`), or
/// Unix milliseconds with `--compact`; an export's times are Unix milliseconds. Event lines are
/// the dump's lines that start with `time=`; its other sections are structure and are passed over.
public struct UsageStatsReader: Sendable {
    public let user: String
    public let offset: UTCOffsetRule
    /// The Android user profile to read (`user=N` in the dump), or nil for all of them, each
    /// kept apart: profile N after the first is the user `<user>-N`.
    public let profile: Int?
    /// The order of day and month in the dump's dates, where the phone's locale prints them
    /// (before Android 10) and a date could be read either way; nil to read it from the date.
    public let dateOrder: DumpDate.Order?
    private var firstProfile: Int?
    /// The log's user for the rows of the profile at hand (checked once, where the profile
    /// begins); nil when that profile is not the one chosen. A dump without profile lines is
    /// the device's first user, profile 0.
    private var currentUser: String?
    /// The UTC instant of the last event read from a local time in this run of event lines: a
    /// wall time a fall-back repeats is read as the first reading not before it.
    private var lastLocalEvent: Int64?
    /// Whether the events at hand follow a profile line that could not be read.
    private var unreadableProfile = false
    private var inEvents = false
    private var csvColumns: (time: Int, package: Int, type: Int, taskRoot: Int?)?
    private var sawFirstLine = false

    public init(user: String, offset: UTCOffsetRule, profile: Int? = nil, dateOrder: DumpDate.Order? = nil) throws(ImportProblem) {
        self.user = try ImportFields.name(user, "user")
        self.offset = offset
        self.profile = profile
        self.dateOrder = dateOrder
        currentUser = profile == nil || profile == 0 ? self.user : nil
    }

    /// Reads one line of the file.
    public mutating func read(_ line: Substring, into log: inout ImportedLog) throws(ImportProblem) {
        let text = line.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
        defer { if !text.isEmpty { sawFirstLine = true } }
        if text.isEmpty { return }
        if !sawFirstLine, text.contains(","), !text.contains("="), text.first?.isLetter == true {
            return try readHeader(text)
        }
        if let columns = csvColumns {
            let f = try CSVFields.split(text)
            guard f.count > max(columns.time, columns.package, columns.type) else {
                throw ImportProblem("missing field", "expected at least \(max(columns.time, columns.package, columns.type) + 1) fields, got \(f.count)")
            }
            let millis = try ImportFields.epochMillis(f[columns.time], "timestamp")
            let type = f[columns.type].allSatisfy(\.isNumber) ? try AndroidEvent.typeName(code: f[columns.type]) : f[columns.type]
            let root = columns.taskRoot.flatMap { $0 < f.count ? f[$0] : nil }
            return try add(millis: millis, offsetMinutes: offset.offsetAt(millis), type: type, package: f[columns.package],
                           taskRoot: root, className: nil, into: &log)
        }
        // A run of event lines is a section; a dump may print the same events again in another.
        let isEvent = text.hasPrefix("time=")
        if isEvent != inEvents {
            if !isEvent { log.beginSection() }
            inEvents = isEvent
            lastLocalEvent = nil
        }
        if text.hasPrefix("user=") {
            let field = text.dropFirst(5).prefix { $0 != " " }
            guard field.utf8.count <= 6, field.allSatisfy({ ("0"..."9").contains($0) }), let n = Int(field) else {
                // Its events belong to no profile this can name: never merged into another's.
                currentUser = nil
                unreadableProfile = true
                let shown = InputBounds.printable(String(field))
                throw ImportProblem("bad profile", "profile line 'user=\(shown)' is not user=N with N from 0 to 999999")
            }
            unreadableProfile = false
            if firstProfile == nil { firstProfile = n }
            if let profile {
                currentUser = n == profile ? user : nil
            } else {
                currentUser = n == firstProfile ? user : try ImportFields.name("\(user)-\(n)", "user")
            }
            return
        }
        guard text.hasPrefix("time=") else { return }
        let pairs = try Self.pairs(text)
        guard let time = pairs["time"], let type = pairs["type"], let package = pairs["package"] else {
            throw ImportProblem("missing field", "an event line needs time=, type= and package=")
        }
        if time.allSatisfy(\.isNumber) {
            let millis = try ImportFields.epochMillis(time, "time")
            try add(millis: millis, offsetMinutes: offset.offsetAt(millis), type: type, package: package, taskRoot: pairs["taskRootPackage"],
                    className: pairs["class"], into: &log)
        } else {
            let (millis, minutes) = try instant(ofLocal: try DumpDate.wallClock(time, order: dateOrder), text: time)
            guard InputBounds.timestamps.contains(millis) else { throw ImportProblem("bad time", "time '\(time)' is outside 1970 to 2100") }
            try add(millis: millis, offsetMinutes: minutes, type: type, package: package, taskRoot: pairs["taskRootPackage"],
                    className: pairs["class"], into: &log)
        }
    }

    /// The UTC instant of a local time of the dump. In the hour a fall-back repeats, the dump's
    /// own order decides: the first reading at or after the event before it (the earlier reading
    /// when nothing comes before, or when both are before it). A time the clocks skipped cannot
    /// have been printed by the phone in that zone: it is refused, naming the zone.
    private mutating func instant(ofLocal wall: Int64, text: String) throws(ImportProblem) -> (Int64, Int) {
        let readings = offset.instants(fromLocal: wall)
        guard let first = readings.first else {
            throw ImportProblem("bad time", "time '\(InputBounds.printable(text))' does not exist in \(offset.name): "
                                + "the clocks went forward over it (is --time-zone the phone's?)")
        }
        let chosen = lastLocalEvent.flatMap { last in readings.first { $0.millis >= last } } ?? (lastLocalEvent == nil ? first : readings.last!)
        lastLocalEvent = chosen.millis
        return (chosen.millis, chosen.offsetMinutes)
    }

    private mutating func readHeader(_ text: Substring) throws(ImportProblem) {
        let names = try CSVFields.split(text).map { $0.lowercased() }
        func column(_ options: [String]) -> Int? { names.firstIndex { options.contains($0) } }
        guard let time = column(["timestamp", "time", "time_ms", "timestamp_ms"]),
              let package = column(["package", "package_name", "packagename"]),
              let type = column(["event_type", "eventtype", "type"]) else {
            throw ImportProblem("bad header", "an export's header needs timestamp, package and event_type columns, got '\(InputBounds.printable(String(text)))'")
        }
        csvColumns = (time, package, type, column(["taskrootpackage", "task_root_package"]))
    }

    /// Adds one event (``AndroidEvent/kind(type:package:taskRoot:className:log:)``) to the log,
    /// as the user of the profile at hand.
    private func add(millis: Int64, offsetMinutes: Int, type: String, package: String, taskRoot: String?, className: String?,
                     into log: inout ImportedLog) throws(ImportProblem) {
        guard let user = currentUser else {
            if unreadableProfile {
                throw ImportProblem("in a bad profile", "an event of the profile whose user= line could not be read")
            }
            log.ignore("events of another profile than --profile \(profile ?? 0)")
            return
        }
        guard let kind = try AndroidEvent.kind(type: type, package: package, taskRoot: taskRoot, className: className, log: &log) else { return }
        log.append(ImportedRow(user: user, millis: millis, offsetMinutes: offsetMinutes, kind: kind))
    }

    /// `key=value` pairs of a dump line; a value is quoted (`"…"`) or runs to the next space.
    static func pairs(_ text: Substring) throws(ImportProblem) -> [String: String] {
        var out: [String: String] = [:]
        var rest = text[...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " }
            guard let eq = rest.firstIndex(of: "=") else { break }
            let key = String(rest[..<eq])
            rest = rest[rest.index(after: eq)...]
            if rest.first == "\"" {
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: "\"") else { throw ImportProblem("malformed", "a quoted value of \(key)= is not closed") }
                out[key] = String(rest[..<close])
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                out[key] = String(rest[..<end])
                rest = rest[end...]
            }
        }
        return out
    }
}
