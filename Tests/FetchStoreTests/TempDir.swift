import FetchTesting
import Foundation

/// A fresh directory among the run's test folders (``TestFolders``), removed by `cleanup`, or with
/// the others when the tests end.
struct TempDir {
    let path: String

    init() {
        path = TestFolders.make("store")
    }

    func file(_ name: String, _ text: String) -> String {
        let p = path + "/" + name
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}
