import FetchCore

/// A row read back from a store, checked against the bounds it was accepted under: a row out of
/// range (written by something else, or damaged) is an error, never a crash. Every driver reads
/// through these, so the bounds have one home.
public enum StoredRow {
    /// A stored event of user `user` (an id of the reader's table, named `userName`).
    @inline(__always)
    public static func event(time: Int64, user: Int32, app: Int32, kind: Int64, value: Int64, offset: Int64, unixForm: Bool,
                             userName: @autoclosure () -> String) throws -> UsageEvent {
        guard let raw = UInt8(exactly: kind), let kind = EventKind(rawValue: raw),
              InputBounds.timestamps.contains(time), InputBounds.offsetMinutes.contains(Int(offset)),
              let value = Int16(exactly: value) else {
            throw InputError("store holds an event out of range (user '\(InputBounds.printable(userName()))', time \(time) ms)")
        }
        return UsageEvent(time: Instant(millis: time), user: user, app: app, kind: kind, value: value,
                          offsetMinutes: Int16(offset), unixForm: unixForm)
    }

    /// A stored fetch report of `user`, its app interned in `apps`.
    public static func fetchReport(app name: String, start: Int64, offset: Int64, duration: Int64, bytes: Int64,
                                   network: Int64, result: String, apps: NameTable, user: String) throws -> FetchReport {
        guard InputBounds.nameProblem(name) == nil,
              InputBounds.timestamps.contains(start), InputBounds.offsetMinutes.contains(Int(offset)),
              (0...Millis.deadline).contains(duration), (0...InputBounds.maxBytes).contains(bytes),
              let raw = Int16(exactly: network), let network = Network(rawValue: raw), network != .none,
              let result = FetchResult(rawValue: result) else {
            throw InputError("a stored fetch report of user '\(InputBounds.printable(user))' is out of range")
        }
        return FetchReport(app: apps.id(name), start: Instant(millis: start), offsetMinutes: Int16(offset),
                           durationMs: duration, bytes: bytes, network: network, result: result)
    }
}
