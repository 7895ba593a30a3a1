import FetchAPI
import FetchStorage
import HTTPTypes
import Hummingbird
import Logging
import Metrics

/// Turns every error into the documented body `{"error": {"message", "field", "requestId"}}`
/// and one log line carrying the same request id (also sent as `X-Request-Id`): client errors
/// at notice level, server errors at error level with the underlying error, which the client
/// does not see.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let serverErrors: Counter
    let storeUnavailable: Counter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let id = context.id
            var api = Self.apiError(error)
            api.requestID = id
            if error is StoreUnavailable {
                storeUnavailable.increment()
                context.logger.error("store unavailable", metadata: [
                    "status": .stringConvertible(api.status.code), "path": .string(request.uri.path),
                    "error": .string(String(describing: error)),
                ])
            } else if api.status.code >= 500 {
                serverErrors.increment()
                context.logger.error("request failed", metadata: [
                    "status": .stringConvertible(api.status.code), "path": .string(request.uri.path),
                    "error": .string(String(describing: error)),
                ])
            } else {
                context.logger.notice("request refused", metadata: [
                    "status": .stringConvertible(api.status.code), "path": .string(request.uri.path),
                    "field": .string(api.field ?? ""), "message": .string(api.message),
                ])
            }
            var response = try api.response(from: request, context: context)
            response.headers[.requestID] = id
            return response
        }
    }

    /// The API error an error stands for: itself, a Hummingbird error (no route, bad method,
    /// body too large) with its status, a store that cannot be reached as 503, a full disk as
    /// 507, anything else as 500.
    static func apiError(_ error: any Error) -> APIError {
        switch error {
        case let e as APIError:
            return e
        case let e as RequestError:
            return APIError(e)
        case let e as HTTPError:
            return APIError(e.status, e.body ?? e.status.reasonPhrase)
        case let e as any HTTPResponseError:
            return APIError(e.status, e.status.reasonPhrase)
        case is StoreUnavailable:
            // The store's user, host, port and database are in the log line, not told to every client.
            return APIError(.serviceUnavailable, "the store is unavailable; nothing of this request was stored: send it again")
        case is StoreFull:
            return APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), "the store is full; nothing of this request was stored")
        case let e as InputError:
            return APIError(.internalServerError, "the stored data cannot be used: \(e.description)")
        default:
            return APIError(.internalServerError, "internal error")
        }
    }
}

/// Refuses a body whose declared `Content-Length` is over the limit before reading any of it.
struct DeclaredLengthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let limit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let text = request.headers[.contentLength] {
            guard let length = Int(text), length >= 0 else {
                throw APIError(.badRequest, "Content-Length is not a length", field: "Content-Length")
            }
            guard length <= limit else {
                throw APIError(.contentTooLarge, "the request body is larger than \(limit) bytes", field: "body")
            }
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-Id")!
}
