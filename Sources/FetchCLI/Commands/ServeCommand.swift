import ArgumentParser
import FetchCore
import FetchServer
import FetchStorage
import Logging
import Metrics
import Prometheus

/// `fetchsched serve`: the scheduling service over HTTP (see Sources/FetchServer/openapi.json).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the scheduling API over HTTP: ingest events, plan fetches, report results.",
        discussion: "Every acknowledged write is committed to the store (SQLite with WAL, or PostgreSQL) before the response. Several instances may serve one PostgreSQL store: each checks a user's version before answering from memory. SIGTERM or SIGINT shuts down gracefully: requests under way get 10 s to end, then the process exits. The API is described at /openapi.json.")

    @Option(help: ArgumentHelp(StoreLocation.help + " A SQLite file is made if missing; a PostgreSQL database gets its tables.", valueName: "store"))
    var db: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: ArgumentHelp("Bearer tokens, each scoped to a tenant: {\"tokens\": [{\"token\": \"…\", \"tenant\": \"…\"}]}. Without it there is no authentication and one tenant.", valueName: "file"))
    var tokens: String?

    @Option(help: "The largest request body, in bytes.")
    var maxBody = 1 << 20

    @Option(help: "The most events in one batch.")
    var maxBatch = 5_000

    @Option(help: "The most users whose live state is kept in memory; the least recently used are dropped first and rebuilt from the store when asked about again.")
    var maxUsersInMemory = SchedulerService.defaultMaxUsersInMemory

    @Option(help: ArgumentHelp("Close a connection that sends nothing for this long (idle, or a request left half-sent), "
                               + "or whose request has not arrived whole within three times this long.", valueName: "duration"))
    var readTimeout = "10s"

    @Option(help: ArgumentHelp("The policy plans, wakes and push advice are made under: \(NextCommand.planningFamilies), "
                               + "each with or without its knob.", valueName: "policy"))
    var policy: String = "adaptive"

    @OptionGroup var scenarioOptions: ScenarioOptions

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "fetchsched")
        logger.logLevel = .info
        guard (1...(1 << 30)).contains(maxBody), (1...1_000_000).contains(maxBatch) else {
            throw CLIError("--max-body must be from 1 to 1073741824 bytes and --max-batch from 1 to 1000000 events")
        }
        guard (0...65_535).contains(port) else { throw CLIError("--port must be 0 to 65535") }
        guard (1...10_000_000).contains(maxUsersInMemory) else { throw CLIError("--max-users-in-memory must be from 1 to 10000000") }
        guard let timeout = DurationText.parse(readTimeout), timeout >= Millis.second, timeout <= Millis.hour else {
            throw CLIError("--read-timeout '\(InputBounds.printable(readTimeout))' is not a duration from 1s to 1h")
        }
        let planning = try NextCommand.planningPolicy(policy)
        let table: TokenTable?
        do { table = try tokens.map { try TokenTable.load(path: $0) } } catch let e as TokenError { throw CLIError(e.description) }
        if table == nil { logger.warning("no --tokens: serving without authentication, as one tenant") }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let store = try await StoreLocation.open(db, writer: true)
        let service = SchedulerService(store: store, scenario: try scenarioOptions.loadScenario(), seed: scenarioOptions.seed,
                                       policy: planning, metrics: PrometheusMetricsFactory(registry: registry),
                                       maxUsersInMemory: maxUsersInMemory)
        let settings = ServerSettings(host: host, port: port, tokens: table,
                                      limits: ServiceLimits(maxBodyBytes: maxBody, maxBatchEvents: maxBatch, readTimeoutMs: timeout))
        logger.info("serving", metadata: ["db": .string(store.location), "host": .string(host),
                                          "port": .stringConvertible(port), "policy": .string(planning.name)])
        let bound = ShutdownBound.start(logger: logger)
        defer { bound.cancel() }
        do {
            try await buildApplication(service: service, settings: settings, registry: registry, logger: logger).runService()
        } catch {
            await StoreLocation.close(store)
            throw error
        }
        await StoreLocation.close(store)
    }
}
