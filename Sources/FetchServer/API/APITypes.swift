/// The JSON bodies of the API (see `openapi.json`).
enum API {
    /// `POST /v1/events`.
    struct EventBatch: Decodable {
        var events: [Event]
    }

    /// One usage event: the log's fields plus the client's id, unique per tenant.
    struct Event: Decodable {
        var id: String
        var user: String
        var timestamp: String
        var event: String
        var app: String?
        var value: String?
    }

    struct IngestResult: Encodable {
        var accepted: Int
        var duplicates: Int
    }

    /// `PUT /v1/users/{user}/apps/{app}/interval`.
    struct IntervalBody: Codable {
        var interval: String
    }

    /// `POST /v1/users/{user}/fetches`.
    struct FetchReport: Decodable {
        var app: String
        var start: String
        var durationMs: Int64
        var bytes: Int64
        var network: String
        var result: String
    }

    struct FetchRecorded: Encodable {
        var recorded: Bool
    }

    struct Budget: Encodable {
        var user: String
        var day: String
        var energyUsedJoules: Double
        var energyBudgetJoules: Double
        var energyLeftJoules: Double
        var cellularUsedBytes: Int64
        var cellularBudgetBytes: Int64
        var cellularLeftBytes: Int64
    }

    struct Deleted: Encodable {
        var user: String
        var deletedEvents: Int
    }

    struct PushAdvice: Encodable {
        var user: String
        var app: String
        var at: String
        var push: Bool
        var reason: String
        var openProbability: Double
        var expectedRescues: Double
        var costJoules: Double
        var silentPushesLeft: Int
    }

    struct Health: Encodable {
        var status: String
    }
}
