/// What a user's device has spent of its daily budgets on one local day.
public struct BudgetState: Sendable, Equatable {
    /// The local day (days since 1970-01-01 at the user's offset), `Int64.min` before any event.
    public var day: Int64
    public var offsetMinutes: Int
    public var energyUsedMicroJ: Int64
    public var energyBudgetMicroJ: Int64
    public var cellularUsedBytes: Int64
    public var cellularBudgetBytes: Int64

    public var energyLeftMicroJ: Int64 { max(0, energyBudgetMicroJ - energyUsedMicroJ) }
    public var cellularLeftBytes: Int64 { max(0, cellularBudgetBytes - cellularUsedBytes) }
}
