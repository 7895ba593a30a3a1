/// One fetch that ran, or one request the engine refused: a row of `replay --trace`.
public struct TraceRow: Sendable {
    public var user: Int32
    public var app: Int32
    public var start: Int64
    public var offsetMinutes: Int16
    public var unixForm: Bool
    public var durationMs: Int64
    /// nil for a refused request.
    public var result: FetchResult?
    public var network: Network
    public var energyMicroJ: Int64
    public var bytes: Int64
    /// nil for a fetch that ran.
    public var refusal: Refusal?
}

/// Receives trace rows as the replay makes them.
public protocol TraceSink: AnyObject {
    func record(_ row: TraceRow)
    /// An open, and whether it found fresh content (and thanks to a background fetch).
    func recordOpen(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, fresh: Bool, rescued: Bool)
    /// A push and its fate: delivered on arrival, held over the rate limit, or delivered late
    /// (at `time`, having arrived at `receivedAt`).
    func recordPush(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, silent: Bool, fate: PushFate, receivedAt: Int64)
}

/// What became of a push.
public enum PushFate: String, Sendable {
    case delivered, held, deliveredLate
}

extension TraceSink {
    public func recordOpen(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, fresh: Bool, rescued: Bool) {}
    public func recordPush(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, silent: Bool, fate: PushFate, receivedAt: Int64) {}
}
