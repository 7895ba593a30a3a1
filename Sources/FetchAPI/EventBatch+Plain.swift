/// A reader for the plain form of an event batch, the one clients send: `{"events": [...]}` of
/// objects whose fields are strings with no escapes, or null for `app` and `value`.
///
/// Hand-written because Foundation's decoder, through its keyed containers, cost more server time
/// per ingest request than the rest of the request's handling (perf under `Benchmarks/load.sh`).
/// Anything else (an escape, a number, another or repeated key, bytes that are not UTF-8, any
/// error) gives nil, and the decoder reads the body: what a body decodes to, and every error
/// message, stay the decoder's.
extension API.EventBatch {
    static func plain(_ bytes: UnsafeRawBufferPointer) -> API.EventBatch? {
        var reader = PlainReader(bytes: bytes)
        guard reader.take(UInt8(ascii: "{")), reader.key() == "events", reader.take(UInt8(ascii: "[")) else { return nil }
        var events: [API.Event] = []
        if !reader.take(UInt8(ascii: "]")) {
            repeat {
                guard let event = reader.event() else { return nil }
                events.append(event)
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "]")) else { return nil }
        }
        guard reader.take(UInt8(ascii: "}")), reader.atEnd else { return nil }
        return API.EventBatch(events: events)
    }
}

/// The cursor of ``API/EventBatch/plain(_:)``.
private struct PlainReader {
    let bytes: UnsafeRawBufferPointer
    var at = 0

    var atEnd: Bool {
        mutating get {
            skipSpace()
            return at == bytes.count
        }
    }

    mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    /// Consumes `byte` after any space, when it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    /// A string with no escape and no control character, valid UTF-8.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
            if bytes[at] == UInt8(ascii: "\\") || bytes[at] < 0x20 { return nil }
            at += 1
        }
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
    }

    /// An object key and its colon.
    mutating func key() -> String? {
        guard let key = string(), take(UInt8(ascii: ":")) else { return nil }
        return key
    }

    /// A string, or nil inside the optional for `null`.
    mutating func optionalString() -> String?? {
        skipSpace()
        if bytes.count - at >= 4, bytes[at] == UInt8(ascii: "n"), bytes[at + 1] == UInt8(ascii: "u"),
           bytes[at + 2] == UInt8(ascii: "l"), bytes[at + 3] == UInt8(ascii: "l") {
            at += 4
            return .some(nil)
        }
        return string().map { .some($0) }
    }

    /// One event object with its four required fields, each field at most once.
    mutating func event() -> API.Event? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var id, user, timestamp, event: String?
        var app, value: String??
        if !take(UInt8(ascii: "}")) {
            repeat {
                // Another key, a repeated one, or a value of another form: the decoder's to read.
                switch key() {
                case "id" where id == nil: guard let v = string() else { return nil }; id = v
                case "user" where user == nil: guard let v = string() else { return nil }; user = v
                case "timestamp" where timestamp == nil: guard let v = string() else { return nil }; timestamp = v
                case "event" where event == nil: guard let v = string() else { return nil }; event = v
                case "app" where app == nil: guard let v = optionalString() else { return nil }; app = v
                case "value" where value == nil: guard let v = optionalString() else { return nil }; value = v
                default: return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        guard let id, let user, let timestamp, let event else { return nil }
        return API.Event(id: id, user: user, timestamp: timestamp, event: event, app: app ?? nil, value: value ?? nil)
    }
}
