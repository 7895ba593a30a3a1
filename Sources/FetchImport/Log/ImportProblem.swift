import FetchCore

/// Why one row of an imported source cannot be read: a short reason, to count rows skipped
/// with `--skip-invalid`, and a message for the error that names the file and line.
public struct ImportProblem: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var message: String

    public init(_ reason: String, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}
