import FetchStorage
import Hummingbird

/// Requires `Authorization: Bearer <token>` and sets the request's tenant from the token.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let tokens: TokenTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw APIError(.unauthorized, "missing bearer token", field: "Authorization")
        }
        guard let tenant = tokens.tenant(for: header.dropFirst(7)) else {
            throw APIError(.unauthorized, "unknown bearer token", field: "Authorization")
        }
        var context = context
        context.tenant = tenant
        return try await next(request, context)
    }
}
