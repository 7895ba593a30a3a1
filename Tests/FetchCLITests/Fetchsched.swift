import FetchTesting
import Foundation

/// Runs the built `fetchsched` binary, as a user would.
enum Fetchsched {
    typealias Result = BoundedProcess.Result

    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fetchsched")
    }

    /// The repository's root, for its bundled data.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the binary and waits for it at most `limit` seconds: a run that hangs is killed and
    /// reported (status -1), so a regression fails the test instead of freezing the suite.
    ///
    /// The wait is on a thread of its own: a test waiting on one of the cooperative pool's few
    /// threads (two on a 2-core machine) holds up every other test's async work meanwhile, a
    /// PostgreSQL store's connection pool among it, whose opening then times out. At most as
    /// many runs go at a time as the machine has cores, as when each run held a pool thread: the
    /// runs whose policies must answer in time would otherwise be timed on an overloaded machine.
    static func run(_ args: [String], limit: Double = 300, environment: [String: String] = [:]) async throws -> Result {
        await slots.acquire()
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<Swift.Result<Result, any Error>, Never>) in
            Thread { done.resume(returning: Swift.Result { try runBlocking(args, limit: limit, environment: environment) }) }.start()
        }
        await slots.release()
        return try outcome.get()
    }

    private static let slots = RunSlots(max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// A counting semaphore that waits without holding a thread.
    actor RunSlots {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(_ count: Int) { free = count }

        func acquire() async {
            if free > 0 {
                free -= 1
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func release() {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
    }

    /// Runs a shell script (`/bin/sh -c`), as ``run(_:limit:environment:)`` runs the binary.
    static func shell(_ script: String, limit: Double = 300) async throws -> Result {
        await slots.acquire()
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<Swift.Result<Result, any Error>, Never>) in
            Thread { done.resume(returning: Swift.Result { try shellBlocking(script, limit: limit) }) }.start()
        }
        await slots.release()
        return try outcome.get()
    }

    /// ``shell(_:limit:)`` waiting on the caller's thread.
    static func shellBlocking(_ script: String, limit: Double = 300) throws -> Result {
        try runBlocking(["-c", script], limit: limit, executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// A Python script (`python3 -c`), waiting on the caller's thread.
    static func python(_ script: String, limit: Double = 60) throws -> Result {
        try runBlocking(["-c", script], limit: limit, executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: ["python3"])
    }

    /// ``run(_:limit:environment:)`` waiting on the caller's thread (``BoundedProcess``): only for
    /// a static initializer, which cannot wait asynchronously.
    static func runBlocking(_ args: [String], limit: Double = 300, environment: [String: String] = [:],
                            executable: URL = binary, prefix: [String] = []) throws -> Result {
        try BoundedProcess(executable: executable, arguments: prefix + args, environment: environment, limit: limit).run()
    }

    /// A fresh folder, removed with the run's others when the tests end (``TestFolders``).
    static func temp() -> String { TestFolders.make("cli") }
}
