import FetchStorage
import FetchAPI
import Hummingbird

/// A client error with a JSON body naming the bad request field: `{"error": {"message", "field"}}`.
public struct APIError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var message: String
    public var field: String?
    /// The request's id, also in the log line and the `X-Request-Id` header.
    public var requestID: String?

    public init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }

    struct Body: Encodable {
        struct Detail: Encodable {
            let message: String
            let field: String?
            let requestId: String?
        }

        let error: Detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try context.responseEncoder.encode(Body(error: .init(message: message, field: field, requestId: requestID)),
                                                          from: request, context: context)
        response.status = status
        return response
    }
}

extension APIError {
    /// The answer to a request the service refuses: the one mapping of its errors to statuses.
    init(_ e: RequestError) {
        let status: HTTPResponse.Status = switch e.kind {
        case .invalid: .badRequest
        case .tooLarge: .contentTooLarge
        case .notFound: .notFound
        case .tooMany: .tooManyRequests
        }
        self.init(status, e.message, field: e.field)
    }
}
