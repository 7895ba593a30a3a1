/// An input that cannot be used at all (a missing file, an unreadable store).
public struct InputError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) { self.description = description }
}
