import FetchCore

/// Request limits: larger requests get a 413 or 400 naming the field.
public struct ServiceLimits: Sendable {
    public var maxBodyBytes: Int
    public var maxBatchEvents: Int
    /// The longest plan horizon a request may ask for (how far past the user's last event a
    /// moment or a reported fetch may lie is ``InputBounds/maxHorizon``).
    public var maxHorizon: Int64
    /// A connection that sends nothing for this long is closed (idle, or a request half-sent).
    public var readTimeoutMs: Int64

    public init(maxBodyBytes: Int = 1 << 20, maxBatchEvents: Int = 5_000, maxHorizon: Int64 = InputBounds.maxHorizon,
                readTimeoutMs: Int64 = 10_000) {
        self.maxBodyBytes = maxBodyBytes
        self.maxBatchEvents = maxBatchEvents
        self.maxHorizon = maxHorizon
        self.readTimeoutMs = readTimeoutMs
    }
}
