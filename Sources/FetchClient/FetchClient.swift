import AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of a FetchScheduler service, its operations typed from the service's OpenAPI
/// document: `ingestEvents`, `plan`, `setInterval`, `reportFetch`, `budget`, `pushAdvice`,
/// `wake`, `deleteUser`. Each returns an enum of the documented responses, errors included.
extension Client {
    /// A client of the service at `serverURL` over AsyncHTTPClient, sending `token` as a bearer
    /// token when the service runs with `--tokens`.
    public static func live(serverURL: URL, token: String? = nil, httpClient: HTTPClient = .shared) -> Client {
        Client(serverURL: serverURL,
               transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient)),
               middlewares: token.map { [BearerToken(token: $0)] } ?? [])
    }
}

extension Client {
    /// A client of the service at `serverURL` over `URLSession`: what an app on the device uses
    /// (a background session's configuration included), sending `token` as a bearer token when
    /// the service runs with `--tokens`.
    public static func live(serverURL: URL, token: String? = nil, session: URLSession) -> Client {
        Client(serverURL: serverURL,
               transport: URLSessionTransport(configuration: .init(session: session)),
               middlewares: token.map { [BearerToken(token: $0)] } ?? [])
    }
}

/// Adds `Authorization: Bearer <token>` to every request.
struct BearerToken: ClientMiddleware {
    let token: String

    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}
