import FetchClient
import Foundation
#if canImport(BackgroundTasks)
import BackgroundTasks
#endif

/// The loop an iOS app runs around a FetchScheduler service: on launch and at each background
/// refresh, report the opens not yet reported, ask for the app's plan, fetch when the plan says
/// now and report what the fetch did, and schedule the next refresh at the plan's next time.
///
/// Only scheduling is the platform's (`BGTaskScheduler`, behind `#if canImport(BackgroundTasks)`);
/// everything else runs anywhere, and the tests drive it on Linux against a live server.
public struct DeviceAgent: Sendable {
    public let client: Client
    public let user: String
    public let app: String
    /// Events the service has not acknowledged yet: kept until it does, their ids making a
    /// retry after a lost answer safe.
    public private(set) var outbox: [Components.Schemas.Event] = []

    /// What the app's own fetch did, as the service records it.
    public struct Outcome: Sendable {
        public var durationMs: Int
        public var bytes: Int
        public var network: Components.Schemas.FetchReport.NetworkPayload
        public var result: Components.Schemas.FetchReport.ResultPayload

        public init(durationMs: Int, bytes: Int, network: Components.Schemas.FetchReport.NetworkPayload,
                    result: Components.Schemas.FetchReport.ResultPayload) {
            self.durationMs = durationMs
            self.bytes = bytes
            self.network = network
            self.result = result
        }
    }

    public init(client: Client, user: String, app: String) {
        self.client = client
        self.user = user
        self.app = app
    }

    /// The user opened the app at `date` (call it from the app's foreground transition).
    public mutating func opened(at date: Date) {
        outbox.append(.init(id: UUID().uuidString, user: user, timestamp: Self.iso(date), event: .open, app: app))
    }

    /// One launch or background refresh at `now`: reports what waits, asks for the plan, runs
    /// `fetch` when the plan's first fetch is due (within `slack`), reports it, and returns when
    /// the next refresh should come (nil: the plan has none).
    public mutating func refresh(now: Date, slack: TimeInterval = 60, fetch: () async throws -> Outcome) async throws -> Date? {
        if !outbox.isEmpty {
            _ = try await client.ingestEvents(body: .json(.init(events: outbox))).ok
            outbox = []
        }
        guard case .ok(let ok) = try await client.plan(path: .init(user: user, app: app)) else { return nil }
        let times = try ok.body.json.plan.compactMap { Self.date($0.time) }
        guard let first = times.first else { return nil }
        if first.timeIntervalSince(now) <= slack {
            let outcome = try await fetch()
            _ = try await client.reportFetch(path: .init(user: user), body: .json(.init(
                app: app, start: Self.iso(now), durationMs: outcome.durationMs, bytes: outcome.bytes,
                network: outcome.network, result: outcome.result))).ok
            return times.dropFirst().first
        }
        return first
    }

    #if canImport(BackgroundTasks)
    /// Asks iOS for the next background refresh no earlier than `date` (the identifier is the
    /// one the app's Info.plist lists under `BGTaskSchedulerPermittedIdentifiers`).
    public static func schedule(at date: Date, identifier: String) throws {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = date
        try BGTaskScheduler.shared.submit(request)
    }
    #endif

    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    static func date(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .colon)))
            ?? (try? Date(text, strategy: .iso8601))
    }
}
