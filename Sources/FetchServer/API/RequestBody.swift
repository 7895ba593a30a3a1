#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird

/// Reads a JSON request body within the size limit, turning decoding failures into 400s that
/// name the field (`events[3].timestamp`).
enum RequestBody {
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw APIError(.contentTooLarge, "the request body is larger than \(limit) bytes", field: "body")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw APIError(.badRequest, "the body is not valid JSON", field: "body")
        }
    }

    static func describe(_ error: DecodingError) -> APIError {
        func path(_ keys: [any CodingKey]) -> String {
            var out = ""
            for key in keys {
                if let i = key.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
            }
            return out.isEmpty ? "body" : out
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return .badRequest("missing field '\(field)'", field: field)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            return .badRequest("field '\(field)' must be \(Self.name(of: type))", field: field)
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            return .badRequest(field == "body" ? "the body is not valid JSON" : "field '\(field)': \(context.debugDescription)", field: field)
        @unknown default:
            return .badRequest("the body cannot be read", field: "body")
        }
    }

    static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "of type \(type)"
        }
    }
}

extension Data {
    init(buffer: ByteBuffer) {
        self = buffer.withUnsafeReadableBytes { Data($0) }
    }
}
