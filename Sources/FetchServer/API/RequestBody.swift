#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchAPI
import Hummingbird
import NIOCore

/// Reads a JSON request body within the size limit; ``RequestDecoding`` names the field of a
/// decoding failure (`events[3].timestamp`).
enum RequestBody {
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "the request body is larger than \(limit) bytes", field: "body")
        } catch {
            // The client went away (or stopped sending) before the body's end: not a body too large.
            throw APIError(.badRequest, "the request body did not arrive whole", field: "body")
        }
        return try RequestDecoding.decode(T.self, from: Data(buffer: buffer))
    }
}

extension Data {
    init(buffer: ByteBuffer) {
        self = buffer.withUnsafeReadableBytes { Data($0) }
    }
}
