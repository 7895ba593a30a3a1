import FetchStorage

/// A store request tried again when a loaded machine makes it miss its wait, as a client is told
/// to (issue 64: nothing of a request that fails so is stored): a few times, each bounded by the
/// wait. For steps a test does not ask about (opening a store, a first write, a write behind a
/// load); a step the test asks about is never wrapped in this.
enum StoreRetry {
    static let attempts = 5

    static func triedAgain<T>(_ step: () async throws -> T) async throws -> T {
        for attempt in 1...attempts {
            do {
                return try await step()
            } catch is StoreUnavailable where attempt < attempts {}
        }
        preconditionFailure("the last attempt returns or throws")
    }
}
