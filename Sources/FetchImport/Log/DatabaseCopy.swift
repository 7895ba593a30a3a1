#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FetchCore
import FetchStorage

/// A private copy of a SQLite database to read (a phone's: iOS's knowledgeC.db, Digital
/// Wellbeing's app_usage), with its `-wal` and its `-journal` when it has them, in a directory
/// of its own (`mkdtemp`, mode 0700): SQLite may create, replay and roll back there as it
/// needs, and the original and everything beside it are only read.
///
/// Each file is opened without following a FIFO's wait and must be a regular file; the copy is
/// bounded in size, and a copy that cannot be made (no room) is a clear error.
///
/// The copy is of one state: a phone's app may commit while it is read, and a copy mixing pages
/// from before and after a commit reads as other events or as a malformed file. Each file's size
/// and times, and the database header's change counter, are read before and after; a copy during
/// which any moved is made again, and after ``attempts`` such copies the import stops, saying so.
package final class DatabaseCopy {
    /// The copy of the database, in ``directory``.
    package let database: String
    package let directory: String
    private var removed = false

    /// The most bytes copied, over the database and its side files.
    static let maxBytes: Int64 = 8 << 30
    /// Copies made, at most, while the database keeps changing under them.
    package static let attempts = 5
    /// The files copied, the database first: what a writer appends meanwhile goes to the WAL,
    /// which a reader of both sees as a later state.
    static let parts = ["", "-wal", "-journal"]

    /// What the database is, for messages (`a knowledgeC.db`).
    let what: String

    /// Copies `path` into a new directory in `parent`, as `name` (`knowledgeC.db`); `what` says
    /// in messages what the database is.
    /// `afterCopy` runs after each copy is made and before it is checked (tests change the source there).
    package init(of path: String, in parent: String, name: String, what: String, afterCopy: () -> Void = {}) throws {
        self.what = what
        let label = name.prefix { $0 != "." }.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" }
        var template = Array(((parent.hasSuffix("/") ? parent : parent + "/") + "fetchsched-\(label).XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw ImportProblem("unreadable", "cannot make a private directory in \(parent) to read \(path) from: "
                                + "\(String(cString: strerror(errno))) (set TMPDIR to a directory with room)")
        }
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        database = directory + "/" + name
        do {
            for attempt in 1...Self.attempts {
                let before = Self.state(of: path)
                var budget = Self.maxBytes
                for part in Self.parts { try copy(path + part, to: database + part, budget: &budget, required: part.isEmpty) }
                afterCopy()
                if Self.state(of: path) == before { return }
                for part in Self.parts { unlink(database + part) }
                if attempt == Self.attempts {
                    throw ImportProblem("changing", "\(path) changed while it was copied, \(Self.attempts) times running: something is "
                                        + "writing to it; copy it when nothing does (the phone's app stopped), and import the copy")
                }
            }
        } catch {
            remove()
            throw error
        }
    }

    /// What says that a database's files changed: each one's size, modification and change times
    /// and inode, and the database header's change counter and page count (bytes 24 to 31), which
    /// every commit outside WAL mode moves.
    static func state(of path: String) -> [Int64] {
        var out: [Int64] = []
        for part in parts {
            var st = stat()
            guard stat(path + part, &st) == 0 else {
                out += [-1]
                continue
            }
            out += [Int64(st.st_size), Int64(st.st_ino), Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec),
                    Int64(st.st_ctim.tv_sec), Int64(st.st_ctim.tv_nsec)]
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return out }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 8)
        if header.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 8, 24) }) == 8 {
            out += header.map { Int64($0) }
        }
        return out
    }

    deinit { remove() }

    /// Removes the copy (SQLite's own files in the directory too) and the directory.
    package func remove() {
        guard !removed else { return }
        removed = true
        for suffix in ["", "-wal", "-journal", "-shm"] { unlink(database + suffix) }
        rmdir(directory)
    }

    /// Copies `source` to `target` (made new, mode 0600), counting its bytes against `budget`. A
    /// missing side file is no copy; a missing database, a file that is not regular, or one that
    /// cannot be read is an error naming it.
    private func copy(_ source: String, to target: String, budget: inout Int64, required: Bool) throws {
        let input = open(source, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT && !required { return }
            throw ImportProblem("unreadable", "cannot read \(source): \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        var st = stat()
        guard fstat(input, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw ImportProblem("unreadable", "\(source) is not a regular file")
        }
        guard Int64(st.st_size) <= budget else {
            throw ImportProblem("too large", "\(source) is \(st.st_size) bytes: more than \(what) this reads (\(Self.maxBytes) bytes in all)")
        }
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) & ~O_NONBLOCK)
        let output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw ImportProblem("unreadable", "cannot copy \(source): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw ImportProblem("unreadable", "cannot read \(source): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            budget -= Int64(n)
            guard budget >= 0 else { throw ImportProblem("too large", "\(source) grew past \(Self.maxBytes) bytes while it was read") }
            let written = buffer.withUnsafeBytes { bytes in WholeTransfer.run(n) { done in write(output, bytes.baseAddress! + done, n - done) } }
            guard written else {
                throw ImportProblem("unreadable", "cannot copy \(source) to \(directory): \(String(cString: strerror(errno))) "
                                    + "(set TMPDIR to a directory with room)")
            }
        }
    }
}
