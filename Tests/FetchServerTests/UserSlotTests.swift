import FetchCore
@testable import FetchServer
import FetchStorage
import FetchSQLite
import Testing

/// A user's live state is made from a store read made with no lock held; a write about the
/// user while that read runs must not leave a state that misses the write.
struct UserSlotTests {
    final class Builds: @unchecked Sendable {
        var count = 0
        var made = 0
    }

    /// A user's session, as the service makes one from what it read (here, nothing).
    static func make(_ read: Int) -> sending any LiveSession {
        PlanningSession(planner: FetchPlanner(scenario: .default, seed: 1), user: "u", apps: NameTable())
    }

    @Test func aSessionBuiltWhileTheUserWasWrittenIsUsedOnceAndNotKept() async throws {
        let slot = UserSlot(), builds = Builds()
        let read = { () async throws -> (Int, version: Int64) in
            builds.count += 1
            if builds.count == 1 { slot.update { _ in true } }  // a write lands during the first read
            return (0, 0)
        }
        try await slot.with(read: read, make: Self.make) { _ in }
        #expect(builds.count == 1 && !slot.isBuilt)
        try await slot.with(read: read, make: Self.make) { _ in }
        #expect(builds.count == 2 && slot.isBuilt)
        try await slot.with(read: read, make: Self.make) { _ in }
        #expect(builds.count == 2, "a kept session is used without a read")
    }

    /// A session made under the lock is the lock's from the start; a request that read the store
    /// while another made and kept the session answers from that one and makes none.
    static func counting(_ builds: Builds) -> sending any LiveSession {
        builds.made += 1
        return make(0)
    }

    @Test func aRequestThatReadWhileAnotherMadeTheSessionAnswersFromItAndMakesNone() async throws {
        let slot = UserSlot(), builds = Builds()
        let inner = { () async throws -> (Builds, version: Int64) in (builds, 0) }
        let outer = { () async throws -> (Builds, version: Int64) in
            try await slot.with(read: inner, make: Self.counting) { _ in }  // another request, during this one's read
            return (builds, 0)
        }
        try await slot.with(read: outer, make: Self.counting) { _ in }
        #expect(builds.made == 1 && slot.isBuilt)
    }

    @Test func aDroppedSessionIsBuiltAgainOnTheNextRequest() async throws {
        let slot = UserSlot(), builds = Builds()
        let read = { () async throws -> (Int, version: Int64) in
            builds.count += 1
            return (0, 0)
        }
        try await slot.with(read: read, make: Self.make) { _ in }
        slot.invalidate()
        #expect(!slot.isBuilt)
        try await slot.with(read: read, make: Self.make) { _ in }
        #expect(builds.count == 2 && slot.isBuilt)
    }

    /// Over a shared store: the session carries the version it was built at.
    @Test func aSessionAtAnotherVersionThanTheStoreIsBuiltAgain() async throws {
        let slot = UserSlot(), builds = Builds()
        let read = { () async throws -> (Int, version: Int64) in
            builds.count += 1
            return (0, 5)
        }
        try await slot.with(current: 5, read: read, make: Self.make) { _ in }
        try await slot.with(current: 5, read: read, make: Self.make) { _ in }
        #expect(builds.count == 1, "at the store's version: kept")
        try await slot.with(current: 9, read: read, make: Self.make) { _ in }  // another instance wrote
        #expect(builds.count == 2)
        try await slot.with(read: read, make: Self.make) { _ in }
        #expect(builds.count == 2, "no version given: not checked")
    }

    @Test(arguments: [(before: Int64(5), follows: true), (before: Int64(7), follows: false)])
    func aWriteIsFollowedOnlyFromTheVersionItStartedAt(before: Int64, follows: Bool) async throws {
        let slot = UserSlot(), builds = Builds()
        let read = { () async throws -> (Int, version: Int64) in
            builds.count += 1
            return (0, 5)
        }
        try await slot.with(current: 5, read: read, make: Self.make) { _ in }
        var fed = false
        slot.update(VersionStep(before: before, after: 8)) { _ in fed = true; return true }
        #expect(fed == follows && slot.isBuilt == follows)
        try await slot.with(current: 8, read: read, make: Self.make) { _ in }
        #expect(builds.count == (follows ? 1 : 2), "a followed session is at the write's version")
    }

    /// What a shared store tells of each commit: a change to the version a session is at keeps
    /// it, any other drops it, and so does one heard while the session was being built.
    @Test func aVersionHeardKeepsOnlyASessionAtThatVersion() async throws {
        let slot = UserSlot(), builds = Builds()
        let read = { () async throws -> (Int, version: Int64) in
            builds.count += 1
            if builds.count == 2 { slot.heard(version: 9) }  // another instance's commit, told during the read
            return (0, 5)
        }
        try await slot.with(current: 5, read: read, make: Self.make) { _ in }
        slot.heard(version: 5)  // this instance's own write, already followed
        #expect(slot.isBuilt)
        slot.heard(version: 6)
        #expect(!slot.isBuilt)
        try await slot.with(read: read, make: Self.make) { _ in }
        #expect(builds.count == 2 && !slot.isBuilt, "built while a change was told: used once, not kept")
        try await slot.with(read: read, make: Self.make) { _ in }
        #expect(builds.count == 3 && slot.isBuilt)
    }

    /// This instance's own write can be heard before its step reaches the session: the
    /// session is stale meanwhile, then follows the write and is not built again.
    @Test func anOwnWriteHeardBeforeItsStepIsFollowedNotRebuilt() async throws {
        let slot = UserSlot(), builds = Builds()
        let read = { () async throws -> (Int, version: Int64) in
            builds.count += 1
            return (0, 5)
        }
        try await slot.with(current: 5, read: read, make: Self.make) { _ in }
        slot.heard(version: 6)
        #expect(!slot.isBuilt, "behind what was heard")
        var fed = false
        slot.update(VersionStep(before: 5, after: 6)) { _ in fed = true; return true }
        #expect(fed && slot.isBuilt)
        slot.heard(version: 6)
        slot.heard(version: 4)  // a late notification of an older write
        try await slot.with(read: read, make: Self.make) { _ in }
        #expect(builds.count == 1)
    }

    /// Listening again drops every session (what changed meanwhile is not known), a deletion
    /// drops the user's slot, and a lost listener makes the service read versions again.
    @Test func theNewsOfAStoreReachTheSlots() async throws {
        let slots = SlotTable(capacity: 8), watch = VersionWatch()
        let read = { () async throws -> (Int, version: Int64) in (0, 3) }
        for user in ["a", "b", "c"] { try await slots.slot(user).with(read: read, make: Self.make) { _ in } }
        #expect(!watch.isLive)
        watch.hear(.listening, slots: slots)
        #expect(watch.isLive && ["a", "b", "c"].allSatisfy { slots.existing($0)?.isBuilt == false })
        for user in ["a", "b", "c"] { try await slots.slot(user).with(read: read, make: Self.make) { _ in } }
        watch.hear(.moved(user: "a", version: 3), slots: slots)
        watch.hear(.moved(user: "b", version: 4), slots: slots)
        watch.hear(.moved(user: "c", version: nil), slots: slots)
        watch.hear(.moved(user: "nobody", version: 1), slots: slots)
        #expect(slots.existing("a")?.isBuilt == true && slots.existing("b")?.isBuilt == false && slots.existing("c") == nil)
        watch.hear(.lost, slots: slots)
        #expect(!watch.isLive)
    }
}
