/// The store has no room left (its disk, or the database's, is full): nothing of the request was
/// stored. Each driver maps its database's own error to it; the service answers 507.
public struct StoreFull: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) { self.description = description }
}
