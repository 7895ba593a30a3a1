import ArgumentParser
import FetchServer
import FetchStore
import Logging
import Metrics
import Prometheus

/// `fetchsched serve`: the scheduling service over HTTP (see Sources/FetchServer/openapi.json).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the scheduling API over HTTP: ingest events, plan fetches, report results.",
        discussion: "Every acknowledged write is committed to the SQLite store (WAL) before the response. SIGTERM or SIGINT shuts down gracefully. The API is described at /openapi.json.")

    @Option(help: ArgumentHelp("The store (made if missing).", valueName: "file"))
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

    @OptionGroup var scenarioOptions: ScenarioOptions

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "fetchsched")
        logger.logLevel = .info
        guard maxBody > 0, maxBatch > 0 else { throw CLIError("--max-body and --max-batch must be positive") }
        let table: TokenTable?
        do { table = try tokens.map { try TokenTable.load(path: $0) } } catch let e as TokenError { throw CLIError(e.description) }
        if table == nil { logger.warning("no --tokens: serving without authentication, as one tenant") }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let store: EventStore
        do { store = try EventStore(path: db) } catch let e as InputError { throw CLIError(e.description) }
        let service = SchedulerService(store: store, scenario: try scenarioOptions.loadScenario(), seed: scenarioOptions.seed,
                                       metrics: PrometheusMetricsFactory(registry: registry))
        let settings = ServerSettings(host: host, port: port, tokens: table,
                                      limits: ServiceLimits(maxBodyBytes: maxBody, maxBatchEvents: maxBatch))
        logger.info("serving", metadata: ["db": .string(db), "host": .string(host), "port": .stringConvertible(port)])
        try await buildApplication(service: service, settings: settings, registry: registry, logger: logger).runService()
    }
}
