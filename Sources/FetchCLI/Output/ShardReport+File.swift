import FetchCore
import FetchStorage
import Foundation

extension ShardReport {
    /// Reads and checks one shard report file (``decode(_:)``); a problem names the file.
    static func read(path: String) throws -> (report: ShardReport, countSum: Double) {
        func fail(_ problem: String) -> CLIError { CLIError("shard report '\(InputBounds.printable(path))': \(problem)") }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? Int else { throw fail("cannot read it") }
        guard size <= maxFileBytes else { throw fail("is \(size) bytes (at most \(maxFileBytes))") }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot read it") }
        do { return try decode([UInt8](data)) } catch { throw fail(error.description) }
    }

    /// Writes the report to standard output, one line of JSON.
    func write() throws {
        try encode { FileHandle.standardOutput.write($0) }
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
