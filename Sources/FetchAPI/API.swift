/// The JSON bodies of the API (`Sources/FetchServer/openapi.json`).
public enum API {
    /// `POST /v1/events`.
    public struct EventBatch: Decodable, Sendable {
        public var events: [Event]
    }

    /// One usage event: the log's fields plus the client's id, unique per user.
    public struct Event: Decodable, Sendable {
        public var id: String
        public var user: String
        public var timestamp: String
        public var event: String
        public var app: String?
        public var value: String?
    }

    /// `PUT /v1/users/{user}/apps/{app}/interval`.
    public struct IntervalBody: Codable, Sendable {
        public var interval: String

        public init(interval: String) { self.interval = interval }
    }

    /// `POST /v1/users/{user}/fetches`.
    public struct FetchReport: Decodable, Sendable {
        public var app: String
        public var start: String
        public var durationMs: Int64
        public var bytes: Int64
        public var network: String
        public var result: String
    }
}
