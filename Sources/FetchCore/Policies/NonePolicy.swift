/// No background fetch at all: the floor every policy is measured against.
package struct NonePolicy: FetchPolicy {
    public init() {}
    public var name: String { "none" }
    public func makeState() {}
    public func decide(_ point: DecisionPoint, view: UserView, state: inout Void, decision: inout Decision) {}
}
