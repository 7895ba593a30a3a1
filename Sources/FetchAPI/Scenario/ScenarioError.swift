/// A scenario file that cannot be used, with the field at fault (`apps.default.profile.bytes`).
public struct ScenarioError: Error, Equatable, CustomStringConvertible {
    public var field: String
    public var problem: String

    public init(field: String, problem: String) {
        self.field = field
        self.problem = problem
    }

    public var description: String { field.isEmpty ? problem : "field '\(field)': \(problem)" }
}
