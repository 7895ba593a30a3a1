import FetchAPI

/// The JSON bodies the API answers with (see `openapi.json`).
extension API {
    struct IngestResult: Encodable {
        var accepted: Int
        var duplicates: Int
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
