import FetchCore

/// One record of an iOS `knowledgeC.db` (its `ZOBJECT` table), as the SQLite rim reads it, and
/// the rows it becomes.
///
/// Each record is an interval of one stream: `/app/inFocus` (an app in front, its bundle id),
/// `/device/isLocked` (1 locked, 0 unlocked), `/device/isPluggedIn` (1 or 0) and
/// `/device/batteryPercentage` (0 to 100). Dates are Core Data's: seconds since 2001-01-01
/// UTC; each record carries its own UTC offset in seconds.
public struct KnowledgeRecord: Sendable, Equatable {
    public enum Stream: String, Sendable, CaseIterable {
        case inFocus = "/app/inFocus"
        case isLocked = "/device/isLocked"
        case isPluggedIn = "/device/isPluggedIn"
        case batteryPercentage = "/device/batteryPercentage"
    }

    /// The record's key (`Z_PK`), to name it in a problem; nil when the database holds none.
    public var key: Int64?
    public var stream: Stream
    public var start: Double
    public var end: Double
    public var secondsFromGMT: Int
    /// The bundle id, for `/app/inFocus`.
    public var string: String?
    /// The state or the percentage, for the device streams.
    public var number: Double?
    /// Why the record cannot be read, when a column holds a value of the wrong kind (a NULL or
    /// text date, an offset in fractions of a second): its rows are refused with this.
    public var invalid: String?

    public init(key: Int64?, stream: Stream, start: Double, end: Double, secondsFromGMT: Int, string: String?, number: Double?,
                invalid: String? = nil) {
        self.invalid = invalid
        self.key = key
        self.stream = stream
        self.start = start
        self.end = end
        self.secondsFromGMT = secondsFromGMT
        self.string = string
        self.number = number
    }

    /// Seconds from 1970 to Core Data's epoch, 2001-01-01 UTC.
    public static let epochOffset: Double = 978_307_200
    /// What iOS writes for the home screen, to which an app's focus returns.
    public static let homeScreen = "com.apple.springboard"

    /// The log's name for the device's user, checked as every reader checks names.
    public static func checkUser(_ name: String) throws(ImportProblem) -> String { try ImportFields.name(name, "user") }

    /// UTC milliseconds of a Core Data date, checked to lie between 1970 and 2100.
    static func millis(_ seconds: Double, _ what: String) throws(ImportProblem) -> Int64 {
        let unix = (seconds + epochOffset) * 1000
        guard unix.isFinite, unix >= Double(InputBounds.timestamps.lowerBound), unix < Double(InputBounds.timestamps.upperBound) else {
            throw ImportProblem("bad time", "\(what) \(seconds) is not a date between 1970 and 2100 (seconds since 2001)")
        }
        return Int64(unix.rounded())
    }

    /// The rows of the records of one device, `records` in start order: each stream's value at
    /// the start of its interval; and where an app's focus ends with no other app's starting
    /// then, a move to the home screen, so that coming back to the same app is a new open. A
    /// record that cannot be read goes to `problem`, which stops the import or counts it.
    public static func rows(_ records: [KnowledgeRecord], user: String, into log: inout ImportedLog,
                            problem: (ImportProblem, KnowledgeRecord) throws -> Void) throws {
        var rows = KnowledgeRows(user: user, focusStarts: records.filter { $0.stream == .inFocus }.map(\.start))
        for r in records {
            do throws(ImportProblem) { try rows.add(r, into: &log) } catch { try problem(error, r) }
        }
    }

    /// How a problem names the record: by its key, or where it has none, as such.
    public var label: String { key.map { "Z_PK=\($0)" } ?? "a record whose Z_PK is not an integer" }

    /// Adds this record's rows; `nextFocus` is the start of the next app's focus, if any.
    func add(to log: inout ImportedLog, user: String, nextFocus: Double?) throws(ImportProblem) {
        if let invalid { throw ImportProblem("bad value", invalid) }
        let limit = UTCOffsetRule.maxMinutes * 60
        guard (-limit...limit).contains(secondsFromGMT) else {
            throw ImportProblem("bad offset", "ZSECONDSFROMGMT \(secondsFromGMT) is beyond ±18 hours")
        }
        let at = try Self.millis(start, "ZSTARTDATE"), minutes = secondsFromGMT / 60
        var rows: [(Int64, ImportedRow.Kind)] = []
        switch stream {
        case .inFocus:
            rows.append((at, .foreground(app: try ImportFields.name(string ?? "", "ZVALUESTRING (bundle id)"))))
            let end = try Self.millis(self.end, "ZENDDATE")
            guard end >= at else { throw ImportProblem("bad time", "ZENDDATE comes before ZSTARTDATE") }
            if nextFocus.map({ $0 > self.end }) ?? true { rows.append((end, .foreground(app: Self.homeScreen))) }
        case .isLocked:
            rows.append((at, .event(try state() ? .screenOff : .screenOn, app: "", value: "")))
        case .isPluggedIn:
            rows.append((at, .event(try state() ? .plugged : .unplugged, app: "", value: "")))
        case .batteryPercentage:
            guard let level = number, level.isFinite, (0...100).contains(level) else {
                throw ImportProblem("bad battery", "ZVALUEDOUBLE \(number.map { "\($0)" } ?? "null") is not a percentage")
            }
            rows.append((at, .event(.battery, app: "", value: "\(Int(level.rounded()))")))
        }
        for (time, kind) in rows { log.append(ImportedRow(user: user, millis: time, offsetMinutes: minutes, kind: kind)) }
    }

    func state() throws(ImportProblem) -> Bool {
        guard let v = number, v == 0 || v == 1 else {
            throw ImportProblem("bad state", "ZVALUEINTEGER \(number.map { "\($0)" } ?? "null") of \(stream.rawValue) is not 0 or 1")
        }
        return v == 1
    }
}

/// The rows of a device's records taken one at a time, in start order (``KnowledgeRecord/rows(_:user:into:problem:)``
/// without holding the records): the starts of the app-focus records, read first, tell where
/// each focus's next one begins.
public struct KnowledgeRows: Sendable {
    let user: String
    let focusStarts: [Double]
    private var focusIndex = 0

    /// - Parameters:
    ///   - user: the log's name for the device's user (``KnowledgeRecord/checkUser(_:)``).
    ///   - focusStarts: the start of every `/app/inFocus` record, in the order the records come.
    public init(user: String, focusStarts: [Double]) {
        self.user = user
        self.focusStarts = focusStarts
    }

    /// Adds the rows of the next record; a record that cannot be read throws, and the next one
    /// may still be added.
    public mutating func add(_ record: KnowledgeRecord, into log: inout ImportedLog) throws(ImportProblem) {
        if record.stream == .inFocus { focusIndex += 1 }
        let next = focusIndex < focusStarts.count && record.stream == .inFocus ? focusStarts[focusIndex] : nil
        try record.add(to: &log, user: user, nextFocus: next)
    }
}
