import FetchCore
@testable import FetchServer
import FetchStorage
import FetchSQLite
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
        let build = { () async throws -> (PlanningSession<AdaptivePolicy>, version: Int64) in
            builds.count += 1
            if builds.count == 1 { slot.update { _ in true } }  // a write lands during the first read
            return (self.session(), 0)
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
        let build = { () async throws -> (PlanningSession<AdaptivePolicy>, version: Int64) in
            builds.count += 1
            return (self.session(), 0)
        }
        try await slot.with(build: build) { _ in }
        slot.invalidate()
        #expect(!slot.isBuilt)
        try await slot.with(build: build) { _ in }
        #expect(builds.count == 2 && slot.isBuilt)
    }

    /// Over a shared store: the session carries the version it was built at.
    @Test func aSessionAtAnotherVersionThanTheStoreIsBuiltAgain() async throws {
        let slot = UserSlot(), builds = Builds()
        let build = { () async throws -> (PlanningSession<AdaptivePolicy>, version: Int64) in
            builds.count += 1
            return (self.session(), 5)
        }
        try await slot.with(current: 5, build: build) { _ in }
        try await slot.with(current: 5, build: build) { _ in }
        #expect(builds.count == 1, "at the store's version: kept")
        try await slot.with(current: 9, build: build) { _ in }  // another instance wrote
        #expect(builds.count == 2)
        try await slot.with(build: build) { _ in }
        #expect(builds.count == 2, "no version given: not checked")
    }

    @Test(arguments: [(before: Int64(5), follows: true), (before: Int64(7), follows: false)])
    func aWriteIsFollowedOnlyFromTheVersionItStartedAt(before: Int64, follows: Bool) async throws {
        let slot = UserSlot(), builds = Builds()
        let build = { () async throws -> (PlanningSession<AdaptivePolicy>, version: Int64) in
            builds.count += 1
            return (self.session(), 5)
        }
        try await slot.with(current: 5, build: build) { _ in }
        var fed = false
        slot.update(VersionStep(before: before, after: 8)) { _ in fed = true; return true }
        #expect(fed == follows && slot.isBuilt == follows)
        try await slot.with(current: 8, build: build) { _ in }
        #expect(builds.count == (follows ? 1 : 2), "a followed session is at the write's version")
    }
}
