import Foundation
import Synchronization

/// Temporary folders for one run of the tests: each is made inside a folder of the run's own under
/// the system's temporary directory, and that folder is removed when the process exits, so that
/// runs of the tests leave nothing behind (each used to leave its folders, thousands a day).
///
/// Set `FETCHSCHED_KEEP_TEST_FOLDERS` to keep them, to look at what a test wrote.
public enum TestFolders {
    /// The run's folder, made on first use; its removal is registered with `atexit` then.
    public static let root: String = {
        // Short names: error messages print a path up to 80 characters, and tests look for the file's name in them.
        let path = NSTemporaryDirectory() + "fetchsched-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["FETCHSCHED_KEEP_TEST_FOLDERS"] == nil {
            atexit { try? FileManager.default.removeItem(atPath: TestFolders.root) }
        }
        return path
    }()

    /// How many folders have been made, which numbers the next.
    static let made = Atomic(0)

    /// A fresh, empty folder inside ``root``, its name `prefix` and a number.
    public static func make(_ prefix: String) -> String {
        let path = root + "/\(prefix)-\(made.wrappingAdd(1, ordering: .relaxed).newValue)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
