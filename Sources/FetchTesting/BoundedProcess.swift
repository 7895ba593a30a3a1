import Foundation

/// A program run to its end or to a bound on its time, whichever comes first, as a test runs one.
///
/// Output goes to files, not pipes, so a child the program leaves behind cannot hold the test
/// open; a run past its bound is killed and reported, so a regression fails the test instead of
/// freezing the suite. The caller's thread waits: call it off Swift's cooperative pool.
public struct BoundedProcess: Sendable {
    /// How the program ended, with what it wrote.
    public struct Result: Sendable {
        /// The exit status, or -1 when the program ran past its bound and was killed.
        public var status: Int32
        public var out: String
        /// What the program wrote to standard error, after "timed out after …" when it was killed.
        public var err: String
    }

    public var executable: URL
    public var arguments: [String]
    /// Variables set over the test's own environment.
    public var environment: [String: String]
    /// The bound, in seconds.
    public var limit: Double

    public init(executable: URL, arguments: [String], environment: [String: String] = [:], limit: Double = 300) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.limit = limit
    }

    /// Runs the program and waits for it, at most ``limit`` seconds, on the caller's thread.
    public func run() throws -> Result {
        let dir = TestFolders.make("run")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outPath = dir + "/out", errPath = dir + "/err"
        // FileHandle(forWritingTo:) below throws should either file be missing.
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        let finished = done.wait(timeout: .now() + limit) == .success
        if !finished {
            kill(p.processIdentifier, SIGKILL)
            // A killed child ends at once; the bound here only keeps a lost notice from hanging the test.
            _ = done.wait(timeout: .now() + 30)
        }
        try out.close()
        try err.close()
        let o = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
        let e = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        return Result(status: finished ? p.terminationStatus : -1, out: o, err: finished ? e : "timed out after \(limit) s\n" + e)
    }
}
