import FetchStorage
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

    /// What to fetch at a wake the device reports (``SchedulerService/wake``).
    struct Wake: Encodable {
        struct Fetch: Encodable {
            var app: String
            var network: String
            var energyJoules: Double
            var bytes: Int64
        }

        struct Refused: Encodable {
            var app: String
            var refusedBy: String
        }

        var user: String
        var kind: String
        var at: String
        var fetch: [Fetch]
        var refused: [Refused]
    }

    struct Health: Encodable {
        var status: String
    }
}
