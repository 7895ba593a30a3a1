import FetchCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a request's JSON body into the API's types, turning decoding failures into
/// ``RequestError``s that name the field (`events[3].timestamp`).
public enum RequestDecoding {
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: Data) throws(RequestError) -> T {
        if T.self == API.EventBatch.self, let batch = bytes.withUnsafeBytes({ API.EventBatch.plain($0) }) as? T {
            return batch
        }
        do {
            return try JSONDecoder().decode(T.self, from: bytes)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw RequestError("the body is not valid JSON", field: "body")
        }
    }

    static func describe(_ error: DecodingError) -> RequestError {
        func path(_ keys: [any CodingKey]) -> String {
            var out = ""
            for key in keys {
                if let i = key.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
            }
            return out.isEmpty ? "body" : InputBounds.printable(out, limit: 200)
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return RequestError("missing field '\(field)'", field: field)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            return RequestError("field '\(field)' must be \(Self.name(of: type))", field: field)
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            return RequestError(field == "body" ? "the body is not valid JSON" : "field '\(field)': \(context.debugDescription)", field: field)
        @unknown default:
            return RequestError("the body cannot be read", field: "body")
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
