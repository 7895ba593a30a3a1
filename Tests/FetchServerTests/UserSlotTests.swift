import FetchCore
@testable import FetchServer
import Testing

/// A user's live state is built from a store read made with no lock held; a write about the
/// user while that read runs must not leave a state that misses the write.
struct UserSlotTests {
    final class Builds: @unchecked Sendable {
        var count = 0
    }

    func session() -> PlanningSession<AdaptivePolicy> {
        PlanningSession(planner: FetchPlanner(scenario: .default, seed: 1), user: "u", apps: NameTable())
    }

    @Test func aSessionBuiltWhileTheUserWasWrittenIsUsedOnceAndNotKept() async throws {
        let slot = UserSlot(), builds = Builds()
        let build = { () async throws -> PlanningSession<AdaptivePolicy> in
            builds.count += 1
            if builds.count == 1 { slot.update { _ in true } }  // a write lands during the first read
            return self.session()
        }
        try await slot.with(build: build) { _ in }
        #expect(builds.count == 1 && !slot.isBuilt)
        try await slot.with(build: build) { _ in }
        #expect(builds.count == 2 && slot.isBuilt)
        try await slot.with(build: build) { _ in }
        #expect(builds.count == 2, "a kept session is used without a read")
    }

    @Test func aDroppedSessionIsBuiltAgainOnTheNextRequest() async throws {
        let slot = UserSlot(), builds = Builds()
        let build = { () async throws -> PlanningSession<AdaptivePolicy> in
            builds.count += 1
            return self.session()
        }
        try await slot.with(build: build) { _ in }
        slot.invalidate()
        #expect(!slot.isBuilt)
        try await slot.with(build: build) { _ in }
        #expect(builds.count == 2 && slot.isBuilt)
    }
}
