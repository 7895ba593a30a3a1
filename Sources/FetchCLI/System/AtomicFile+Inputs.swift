#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FetchCore
import FetchStorage

extension AtomicFile {
    /// Refuses, before anything is read or written, an output that is one of the run's inputs:
    /// the same path, a symbolic link to it, or another name of the same file (a hard link, a bind
    /// mount), told apart by device and inode. An output replaced by its run would destroy the
    /// very file the run reads (a log, a phone's database).
    ///
    /// Outputs that do not exist yet, and streams (`/dev/stdout`, a pipe), cannot be an input's
    /// file and pass; an input that cannot be read is left for its reader to report.
    static func refuse(outputs: [String?], over inputs: [String?]) throws {
        let read = inputs.compactMap { path in path.flatMap { p in identity(of: p).map { (path: p, id: $0) } } }
        for output in outputs.compactMap({ $0 }) {
            guard let id = identity(of: output), let input = read.first(where: { $0.id == id }) else { continue }
            let same = input.path == output ? "is" : "is the same file as"
            throw CLIError("the output '\(InputBounds.printable(output))' \(same) the input '\(InputBounds.printable(input.path))': "
                           + "refusing to write over what the run reads (give another output path)")
        }
    }

    /// The device and inode of the regular file at `path`, links followed; nil for anything else.
    private static func identity(of path: String) -> FileIdentity? {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// One file, whatever name reaches it.
    private struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
    }
}
