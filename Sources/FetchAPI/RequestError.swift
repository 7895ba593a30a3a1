/// A request the service refuses, with what is wrong and the request field at fault
/// (`events[3].timestamp`, `horizon`, `body`): the service's one error type. It knows nothing
/// of HTTP; the server maps each kind to a status code in one place (`APIError`).
public struct RequestError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// 400: a value is missing, malformed or out of its documented range.
        case invalid
        /// 413: the body or the batch is larger than the server takes.
        case tooLarge
        /// 404: what the field names does not exist (a user with no events).
        case notFound
        /// 429: the tenant has too many costly requests of this kind under way.
        case tooMany
    }

    public var kind: Kind
    public var message: String
    public var field: String

    public init(_ kind: Kind, _ message: String, field: String) {
        self.kind = kind
        self.message = message
        self.field = field
    }

    /// An invalid field (400).
    public init(_ message: String, field: String) {
        self.init(.invalid, message, field: field)
    }
}
