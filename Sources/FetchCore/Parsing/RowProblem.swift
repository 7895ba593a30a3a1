/// Why a log row was rejected.
public enum RowProblemKind: String, CaseIterable, Sendable {
    case badTimestamp, unknownEvent, missingField, badValue, outOfOrder
}

/// A rejected log row: the kind of problem and a sentence saying what is wrong.
public struct RowProblem: Error, Sendable {
    public var kind: RowProblemKind
    package var message: String
    /// The row field at fault (`timestamp`, `user`, `app`, `event`, `value`), when one is.
    public var field: String?

    package init(_ kind: RowProblemKind, _ message: String, field: String? = nil) {
        self.kind = kind
        self.message = message
        self.field = field
    }
}

/// A log that cannot be read, at a file and line.
package struct LogError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int
    public var problem: RowProblem

    public init(file: String, line: Int, problem: RowProblem) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var description: String { "\(file):\(line): \(problem.message)" }
}
