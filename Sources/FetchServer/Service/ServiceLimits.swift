/// Request limits: larger requests get a 413 or 400 naming the field.
public struct ServiceLimits: Sendable {
    public var maxBodyBytes: Int
    public var maxBatchEvents: Int
    /// The longest plan horizon a request may ask for.
    public var maxHorizon: Int64

    public init(maxBodyBytes: Int = 1 << 20, maxBatchEvents: Int = 5_000, maxHorizon: Int64 = 7 * 86_400_000) {
        self.maxBodyBytes = maxBodyBytes
        self.maxBatchEvents = maxBatchEvents
        self.maxHorizon = maxHorizon
    }
}
