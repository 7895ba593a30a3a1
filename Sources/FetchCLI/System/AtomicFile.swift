import FetchCore
import Foundation

/// An output file (`--out`, `--trace`, a shard): written through a buffer to a temporary name
/// and renamed into place on `commit`, so a failed run leaves nothing half-written, and a run
/// stopped by a signal nothing at all (``RunStop`` removes the temporary file).
///
/// Only a regular file, or a path that does not exist yet, is replaced. A character device or a
/// FIFO (`/dev/null`, a pipe, or a link to one) is written in place, as a stream; `-`,
/// `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are written through their open descriptor,
/// whatever it is. Any other symlink, a directory or anything else is refused: the run never writes over
/// a path it did not create.
final class AtomicFile {
    let path: String
    /// The temporary file renamed onto `path` at the end; nil when writing a stream in place.
    private let temporary: String?
    private let handle: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8] = []
    private var done = false

    init(path: String) throws {
        self.path = path
        let fd: Int32
        switch try Self.kind(of: path) {
        case .absent, .regular:
            // A name of its own (`mkstemp`): a run killed before its rename leaves one behind, and
            // a later run of the same pid (pid 1 in a container) must not collide with it.
            var template = Array((path + ".partial-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            self.temporary = temporary
            if fd >= 0 {
                RunStop.shared.removingOnStop(temporary)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fchmod(fd, 0o644 & ~Self.creationMask)  // as `open` with 0644 would make it
            }
        case .descriptor(let n):
            // The descriptor itself, not the file it names: its offset and append mode stay the shell's.
            fd = fcntl(n, F_DUPFD_CLOEXEC, 3)
            temporary = nil
        case .stream:
            // Non-blocking to open, so a FIFO nobody reads fails at once instead of waiting.
            fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK)
            if fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
            temporary = nil
        }
        guard fd >= 0, let h = fdopen(fd, "wb") else {
            let reason = errno == ENXIO ? "a FIFO that nothing reads" : String(cString: strerror(errno))
            throw CLIError("cannot write '\(InputBounds.printable(path))': \(reason)")
        }
        handle = h
        buffer.reserveCapacity(1 << 20)
    }

    /// The process's file-creation mask, read once (`umask` can only be read by setting it, and is
    /// put back at once): `mkstemp` makes its file 0600 whatever the mask.
    private static let creationMask: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()

    /// What is at an output path, read without following a symlink.
    enum Kind: Equatable { case absent, regular, stream, descriptor(Int32) }

    /// The open descriptor an output path names, by Unix convention: `-` and `/dev/stdout` are
    /// standard output, `/dev/stderr` standard error, `/dev/fd/N` and `/proc/self/fd/N` descriptor
    /// N; written through whatever it is (a file the shell opened, a pipe, a terminal).
    static func descriptor(of path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                let digits = path.dropFirst(prefix.count)
                guard (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                return Int32(digits)
            }
            return nil
        }
    }

    static func kind(of path: String) throws -> Kind {
        if let n = descriptor(of: path) {
            guard fcntl(n, F_GETFD) >= 0 else { throw CLIError("cannot write '\(InputBounds.printable(path))': descriptor \(n) is not open") }
            return .descriptor(n)
        }
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return .absent }
            throw CLIError("cannot write '\(InputBounds.printable(path))': \(String(cString: strerror(errno)))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFCHR, S_IFIFO: return .stream
        case S_IFLNK:
            // A link to a stream (`/dev/stdout`) is written through: nothing is replaced.
            var target = stat()
            if stat(path, &target) == 0, [S_IFCHR, S_IFIFO].contains(target.st_mode & S_IFMT) { return .stream }
            throw CLIError("'\(InputBounds.printable(path))' is a symbolic link: refusing to write over it (give the path it points to)")
        case S_IFDIR:
            throw CLIError("'\(InputBounds.printable(path))' is a directory: give a file's path")
        default:
            throw CLIError("'\(InputBounds.printable(path))' is neither a regular file nor a stream: refusing to write over it")
        }
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    /// Hands the buffer to the stream; the first failure's `errno` is kept for ``commit()``.
    private func flush() {
        let n = buffer.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        if n != buffer.count && failure == 0 { failure = errno == 0 ? EIO : errno }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The `errno` of the first write that failed, 0 while none has.
    private var failure: Int32 = 0

    /// Writes what is buffered, flushes and closes the file, each step checked, and renames it
    /// into place; any failure throws and leaves nothing at `path` but what was there before.
    func commit() throws {
        flush()
        done = true
        if fflush(handle) != 0 || ferror(handle) != 0, failure == 0 { failure = errno == 0 ? EIO : errno }
        if fclose(handle) != 0, failure == 0 { failure = errno }
        let code = failure
        let failed = { CLIError("cannot write '\(InputBounds.printable(self.path))': \(String(cString: strerror(code == 0 ? errno : code)))") }
        guard let temporary else {
            guard code == 0 else { throw failed() }
            return
        }
        // Checked again at the end: a symlink put in the file's place during the run is not followed
        // by rename (it replaces the link), but it is refused all the same, with kind(of:)'s reason.
        defer { RunStop.shared.kept(temporary) }
        do {
            guard code == 0 else { throw failed() }
            _ = try Self.kind(of: path)
            guard rename(temporary, path) == 0 else { throw failed() }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    deinit {
        if !done {
            fclose(handle)
            if let temporary {
                unlink(temporary)
                RunStop.shared.kept(temporary)
            }
        }
    }
}
