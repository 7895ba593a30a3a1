/// A background fetch an app actually made and reported (through the service): it counts
/// against the day's budgets and tells the engine how the app's fetches go.
public struct FetchReport: Sendable, Equatable {
    public var app: Int32
    public var start: Instant
    public var offsetMinutes: Int16
    public var durationMs: Int64
    public var bytes: Int64
    public var network: Network
    public var result: FetchResult

    public init(app: Int32, start: Instant, offsetMinutes: Int16, durationMs: Int64, bytes: Int64, network: Network,
                result: FetchResult) {
        self.app = app
        self.start = start
        self.offsetMinutes = offsetMinutes
        self.durationMs = durationMs
        self.bytes = bytes
        self.network = network
        self.result = result
    }
}
