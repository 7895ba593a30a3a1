/// The store did not answer: no connection within the wait, or the connection broke. Nothing of
/// the request was stored, and the same request may be sent again (event ids make it
/// idempotent). The service answers 503.
public struct StoreUnavailable: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) { self.description = description }
}
