import FetchCore

/// One event of a batch that passed every check: the client's id and user as sent, the
/// decoded event (its app id local to the batch) and its app's name.
public struct ValidEvent: Sendable {
    public var id: String
    public var user: String
    public var event: UsageEvent
    public var appName: String
}

/// A reported fetch that passed every check, its app still by name.
public struct ValidFetchReport: Sendable {
    public var app: String
    public var fetch: FetchReport
}

extension API.EventBatch {
    /// Every event checked exactly as a log row is (``RowDecoder``), plus its id: the first bad
    /// one refuses the whole batch, naming its field (`events[3].timestamp`).
    public func validated(maxEvents: Int) throws(RequestError) -> [ValidEvent] {
        guard events.count <= maxEvents else {
            throw RequestError(.tooLarge, "a batch holds at most \(maxEvents) events, this one \(events.count)", field: "events")
        }
        var decoder = RowDecoder()
        var out: [ValidEvent] = []
        out.reserveCapacity(events.count)
        for (i, e) in events.enumerated() {
            try RequestFields.name(e.id, field: "events[\(i)].id")
            let fields = [e.timestamp, e.user, e.app ?? "", e.event, e.value ?? ""].map { Array($0.utf8) }
            do {
                let event = try decoder.decode(fields: fields)
                out.append(ValidEvent(id: e.id, user: e.user, event: event, appName: event.app >= 0 ? decoder.apps[event.app] : ""))
            } catch {
                throw RequestError(error.message, field: "events[\(i)].\(error.field ?? "value")")
            }
        }
        return out
    }
}

extension API.FetchReport {
    /// The report with every number in its documented range: a duration up to the 30-second
    /// deadline, bytes up to ``InputBounds/maxBytes``, a start within ``InputBounds/timestamps``.
    public func validated() throws(RequestError) -> ValidFetchReport {
        try RequestFields.name(app, field: "app")
        let parsed: TimestampParser.Parsed
        do { parsed = try TimestampParser.parse(text: start) } catch {
            throw RequestError("field 'start': \(error.message)", field: "start")
        }
        guard (0...Millis.deadline).contains(durationMs) else {
            throw RequestError("durationMs must be from 0 to \(Millis.deadline) (the deadline)", field: "durationMs")
        }
        guard (0...InputBounds.maxBytes).contains(bytes) else {
            throw RequestError("bytes must be from 0 to \(InputBounds.maxBytes)", field: "bytes")
        }
        guard let net = Network.allCases.first(where: { $0.logName == network }), net != .none else {
            throw RequestError("network '\(InputBounds.printable(network))' is not wifi or cellular", field: "network")
        }
        guard let outcome = FetchResult(rawValue: result) else {
            throw RequestError("result '\(InputBounds.printable(result))' is not newData, noData, failed or terminated", field: "result")
        }
        return ValidFetchReport(app: app, fetch: FetchReport(app: -1, start: Instant(millis: parsed.millis), offsetMinutes: parsed.offsetMinutes,
                                                               durationMs: durationMs, bytes: bytes, network: net, result: outcome))
    }
}

extension API.IntervalBody {
    /// The interval: never, minimum, or custom:<duration> up to ``InputBounds/maxDuration``.
    public func validated() throws(RequestError) -> FetchInterval {
        guard let value = FetchInterval(text: interval) else {
            throw RequestError("interval '\(InputBounds.printable(interval))' is not never, minimum or custom:<duration> up to 366d such as custom:30m",
                               field: "interval")
        }
        return value
    }
}

/// Checks of single request fields: names in the path, moments and horizons in the query.
public enum RequestFields {
    /// Names (users, apps, ids) are 1 to 200 bytes with no control character and no U+FEFF
    /// (``InputBounds/nameProblem(_:)``).
    public static func name(_ s: String, field: String) throws(RequestError) {
        if let problem = InputBounds.nameProblem(s) { throw RequestError("field '\(field)' \(problem)", field: field) }
    }

    /// A name from a URL path: percent-decoded to its exact bytes, which must be UTF-8, then
    /// checked as every name is.
    ///
    /// Hand-written: Foundation's `removingPercentEncoding` drops a leading U+FEFF (so
    /// `%EF%BB%BFcarol` would name `carol`), and Hummingbird's decoder is internal to it.
    public static func pathName(_ raw: some StringProtocol, field: String) throws(RequestError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var it = raw.utf8.makeIterator()
        while let c = it.next() {
            guard c == UInt8(ascii: "%") else { bytes.append(c); continue }
            guard let hi = it.next().flatMap(hexValue), let lo = it.next().flatMap(hexValue) else {
                throw RequestError("path parameter '\(field)' has a '%' not followed by two hex digits", field: field)
            }
            bytes.append(hi << 4 | lo)
        }
        guard let name = String(validating: bytes, as: UTF8.self) else {
            throw RequestError("path parameter '\(field)' is not UTF-8 once percent-decoded", field: field)
        }
        try Self.name(name, field: field)
        return name
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// A moment, as a log timestamp.
    public static func instant(_ text: String, field: String) throws(RequestError) -> Int64 {
        do { return try TimestampParser.parse(text: text).millis } catch {
            throw RequestError("field '\(field)': \(error.message)", field: field)
        }
    }

    /// A plan horizon from 1 ms to `max` (default a day).
    public static func horizon(_ text: String?, max: Int64) throws(RequestError) -> Int64 {
        guard let text else { return Millis.day }
        guard let ms = DurationText.parse(text), ms > 0, ms <= max else {
            throw RequestError("horizon '\(InputBounds.printable(text))' is not a duration from 1ms to \(DurationText.format(max)), such as 24h",
                               field: "horizon")
        }
        return ms
    }

    /// The kind of a wake a device reports: screen_on, plugged or location.
    public static func wakeKind(_ text: String?, field: String) throws(RequestError) -> WakeKind {
        guard let text else { throw RequestError("field '\(field)' is missing: screen_on, plugged or location", field: field) }
        guard let kind = WakeKind(rawValue: text) else {
            throw RequestError("field '\(field)': '\(InputBounds.printable(text))' is not screen_on, plugged or location", field: field)
        }
        return kind
    }
}
