import FetchCore
import FetchResults
import FetchStorage
import Foundation

extension ShardReport {
    /// Reads and checks one shard report file (``decode(_:keepingRowsIn:)``); a problem names the
    /// file. Its rows go to temporary files (``UserRowFile``) as they are read: a merge holds the
    /// text of one report at a time, and no report's rows.
    static func read(path: String) throws -> (report: ShardReport, countSum: Double) {
        func fail(_ problem: String) -> CLIError { CLIError("shard report '\(InputBounds.printable(path))': \(problem)") }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? Int else { throw fail("cannot read it") }
        guard size <= maxFileBytes else { throw fail("is \(size) bytes (at most \(maxFileBytes))") }
        guard let bytes = Self.contents(of: path, size: size) else { throw fail("cannot read it") }
        var files: [UserRowFile] = []
        do {
            let read = try decode(bytes) {
                let file = try UserRowFile(for: "merge")
                files.append(file)
                return file
            }
            for file in files { try file.check() }
            return read
        } catch let problem as ShardProblem {
            throw fail(problem.description)
        }
    }

    /// The `size` bytes of the file at `path`, read straight into one array (a `Data` first would
    /// hold the text twice, and a report can be a gigabyte); nil when it cannot be read or its
    /// size is not `size` any more.
    private static func contents(of path: String, size: Int) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var done = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            while done <= size {
                let n = fread(buffer.baseAddress! + done, 1, size + 1 - done, file)
                guard n > 0 else { break }
                done += n
            }
            count = done
        }
        return done == size && ferror(file) == 0 ? bytes : nil
    }

    /// Writes the report to standard output, one line of JSON.
    func write() throws {
        try encode { data in try data.withUnsafeBytes { try StandardStreams.write($0) } }
        try StandardStreams.write("\n")
    }
}
