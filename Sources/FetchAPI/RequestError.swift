/// A request the API refuses, with what is wrong and the request field at fault
/// (`events[3].timestamp`, `horizon`, `body`). The server turns it into a 4xx and its JSON body.
public struct RequestError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// 400: a value is missing, malformed or out of its documented range.
        case invalid
        /// 413: the body or the batch is larger than the server takes.
        case tooLarge
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
