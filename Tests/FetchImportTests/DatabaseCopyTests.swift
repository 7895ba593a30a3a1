import FetchCore
import FetchImport
import Foundation
import Testing

/// A phone database's private copy is of one state: a commit landing while it is copied makes it
/// copy again, and one that keeps landing stops the import with its reason.
struct DatabaseCopyTests {
    static func folder() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dbcopy-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `bytes` at `offset` of the file at `path`, as a commit writes its pages.
    static func commit(_ path: String, at offset: UInt64, _ bytes: [UInt8]) {
        let h = FileHandle(forWritingAtPath: path)!
        try! h.seek(toOffset: offset)
        h.write(Data(bytes))
        try! h.close()
    }

    /// `changes` copies see a commit land (the header's counter, a page with it, or the WAL growing),
    /// the rest none: the copy is the state after the last commit, or, with every copy changed,
    /// the import stops saying so, and nothing of the copies is left.
    @Test(arguments: [0, 1, 2, DatabaseCopy.attempts])
    func aCopyDuringWhichTheDatabaseChangedIsMadeAgain(changes: Int) throws {
        let dir = Self.folder(), path = dir + "/app_usage"
        var bytes = [UInt8](repeating: 7, count: 1 << 16)
        bytes[24..<28] = [0, 0, 0, 1]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path + "-wal"))
        var copies = 0
        let make = {
            try DatabaseCopy(of: path, in: dir, name: "app_usage", what: "a test database") {
                copies += 1
                guard copies <= changes else { return }
                switch copies % 3 {
                case 1: Self.commit(path, at: 24, [0, 0, 0, UInt8(1 + copies)])
                case 2:
                    // A commit's pages, and its header: a file's times move only by the clock's tick.
                    Self.commit(path, at: 40_000, [UInt8(copies)])
                    Self.commit(path, at: 24, [0, 0, 1, UInt8(copies)])
                default: Self.commit(path + "-wal", at: 3, [UInt8(copies)])
                }
            }
        }
        if changes >= DatabaseCopy.attempts {
            #expect { try make() } throws: { ($0 as? ImportProblem)?.message.contains("changed while it was copied") == true }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["app_usage", "app_usage-wal"])
        } else {
            let copy = try make()
            #expect(copies == changes + 1)
            for part in ["", "-wal"] {
                #expect(try Data(contentsOf: URL(fileURLWithPath: copy.database + part)) == Data(contentsOf: URL(fileURLWithPath: path + part)))
            }
            copy.remove()
        }
        try? FileManager.default.removeItem(atPath: dir)
    }
}
