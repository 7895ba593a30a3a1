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
    ///
    /// A database's companions are its inputs too: SQLite reads `<file>-wal` (committed pages not yet
    /// in the file), `<file>-journal` (a rollback journal, which it plays back into the file) and
    /// `<file>-shm` with it. An output there is refused whether or not the companion exists yet:
    /// written, it would replace committed events, or be taken for a journal to roll back.
    static func refuse(outputs: [String?], over inputs: [String?]) throws {
        let read = inputs.compactMap { $0 }.flatMap { p in
            ([(p, "")] + companions.map { (p + $0, $0) }).compactMap { path, part in identity(of: path).map { (path: p, part: part, id: $0) } }
        }
        // By the file's own name, links followed, as SQLite finds its companions beside it.
        let named = inputs.compactMap { p in p.flatMap { p in identity(of: p) != nil ? resolved(p).map { (path: p, canonical: $0) } : nil } }
        for output in outputs.compactMap({ $0 }) {
            // An open descriptor is read where it leads (`-` is standard output).
            let probe = AtomicFile.descriptor(of: output).map { "/dev/fd/\($0)" } ?? output
            var found = identity(of: probe).flatMap { id in read.first { $0.id == id } }.map { ($0.path, $0.part) }
            if found == nil, let out = canonical(probe) {
                found = named.lazy.compactMap { n in companions.first { n.canonical + $0 == out }.map { (n.path, $0) } }.first
            }
            guard let (input, part) = found else { continue }
            let same = part.isEmpty ? (input == output ? "is" : "is the same file as") : "is the \(companionNames[part]!) of"
            throw CLIError("the output '\(InputBounds.printable(output))' \(same) the input '\(InputBounds.printable(input))': "
                           + "refusing to write over what the run reads (give another output path)")
        }
    }

    /// The files SQLite reads beside a database, by the suffix of their names.
    private static let companions = ["-wal", "-journal", "-shm"]
    private static let companionNames = ["-wal": "write-ahead log", "-journal": "rollback journal", "-shm": "shared-memory index"]

    /// `path` with its folder's links resolved (the file itself need not exist); nil when the folder cannot be.
    private static func canonical(_ path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != "..", let base = resolved(folder) else { return nil }
        return (base == "/" ? "" : base) + "/" + name
    }

    /// The path of an existing file or folder with every link resolved; nil when it cannot be.
    private static func resolved(_ path: String) -> String? {
        guard let r = realpath(path, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    /// The device and inode of the regular file at `path`, links followed; nil for anything else.
    private static func identity(of path: String) -> FileIdentity? { FileIdentity(path: path, regularOnly: true) }
}
