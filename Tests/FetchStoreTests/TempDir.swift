import Foundation

/// A fresh directory under the system's temporary directory, removed by `cleanup`.
struct TempDir {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "fetchsched-test-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String) -> String {
        let p = path + "/" + name
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}
