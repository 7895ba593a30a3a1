import FetchAPI
import FetchCore
import FetchStorage
import Foundation
import Hummingbird
import Logging
import NIOCore
import Prometheus

/// The service's HTTP application; tests call it directly and drive it with HummingbirdTesting.
public func buildApplication(service: SchedulerService, settings: ServerSettings, registry: PrometheusCollectorRegistry,
                             logger: Logger) -> some ApplicationProtocol {
    let timeout = TimeAmount.milliseconds(settings.limits.readTimeoutMs)
    return Application(router: buildRouter(service: service, settings: settings, registry: registry),
                       server: .http1(configuration: .init(additionalChannelHandlers: ReadTimeoutCloser.handlers(timeout: timeout),
                                                           idleTimeout: timeout)),
                       configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "fetchsched"),
                       logger: logger)
}

/// The routes of `openapi.json`.
public func buildRouter(service: SchedulerService, settings: ServerSettings,
                        registry: PrometheusCollectorRegistry) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: LogRequestsMiddleware(.debug))
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ErrorMiddleware(serverErrors: service.metrics.requestErrors, storeUnavailable: service.metrics.storeUnavailable))
    router.add(middleware: DeclaredLengthMiddleware(limit: settings.limits.maxBodyBytes))
    addOperationalRoutes(router, service: service, registry: registry)

    let v1 = router.group("v1")
    if let tokens = settings.tokens { v1.add(middleware: BearerAuthMiddleware(tokens: tokens)) }
    let limits = settings.limits
    v1.post("events") { request, context in
        let batch = try await RequestBody.decode(API.EventBatch.self, from: request, limit: limits.maxBodyBytes)
        return try await service.ingest(batch, tenant: context.tenant, limits: limits)
    }
    v1.get("users/:user/apps/:app/plan") { request, context in
        let plan = try await service.planJSON(try context.user(), app: try context.app(), at: try request.moment(),
                                              horizon: try request.horizon(max: limits.maxHorizon))
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: plan)))
    }
    v1.put("users/:user/apps/:app/interval") { request, context in
        let (user, app) = (try context.user(), try context.app())
        let body = try await RequestBody.decode(API.IntervalBody.self, from: request, limit: limits.maxBodyBytes)
        return try await service.setInterval(user, app: app, try body.validated())
    }
    v1.post("users/:user/fetches") { request, context in
        let user = try context.user()
        let body = try await RequestBody.decode(API.FetchReport.self, from: request, limit: limits.maxBodyBytes)
        return try await service.recordFetch(user, try body.validated())
    }
    v1.get("users/:user/apps/:app/push") { request, context in
        try await service.pushAdvice(try context.user(), app: try context.app(), at: try request.moment())
    }
    v1.get("users/:user/wake") { request, context in
        try await service.wake(try context.user(), kind: try request.wakeKind(), at: try request.moment())
    }
    v1.get("users/:user/budget") { request, context in
        try await service.budget(try context.user(), at: try request.moment())
    }
    v1.delete("users/:user") { _, context in
        try await service.delete(try context.user())
    }
    return router
}

/// The routes outside the API proper: liveness, readiness, the OpenAPI document and metrics.
func addOperationalRoutes(_ router: Router<AppRequestContext>, service: SchedulerService, registry: PrometheusCollectorRegistry) {
    let openAPI = OpenAPIDocument.bytes

    router.get("/health") { _, _ in API.Health(status: "ok") }
    // Readiness: the store answers. A load balancer sends no request to an instance whose store
    // it cannot reach; /health stays the process's liveness.
    router.get("/ready") { _, _ in
        try await service.store.ready()
        return API.Health(status: "ok")
    }
    router.get("/openapi.json") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: openAPI)))
    }
    router.get("/metrics") { _, _ in
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                 body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }
}

extension API.Health: ResponseEncodable {}
extension API.IngestResult: ResponseEncodable {}
extension API.IntervalBody: ResponseEncodable {}
extension API.FetchRecorded: ResponseEncodable {}
extension API.Budget: ResponseEncodable {}
extension API.Deleted: ResponseEncodable {}
extension API.PushAdvice: ResponseEncodable {}
extension API.Wake: ResponseEncodable {}
