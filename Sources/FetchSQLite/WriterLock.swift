import FetchStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One process's claim to write a SQLite store: an exclusive `flock` on `<store>.lock`, held
/// while the store is open and released by the kernel when the process ends, however it ends.
///
/// The service keeps users' engines in memory and does not read versions over SQLite, so a
/// second writer (a CLI `ingest` into the file a service uses, or a second service) would go
/// unseen: it is refused at once instead. Readers (`next`, `replay --db`) take no claim. The
/// lock file is separate from the database because closing any descriptor of the database
/// would drop SQLite's own POSIX locks.
public final class WriterLock: Sendable {
    let fd: Int32
    public let path: String

    /// Claims `storePath` for writing, or throws a clear ``InputError`` when another process holds it.
    public init(storePath: String) throws {
        path = storePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw InputError("cannot open the store's lock file '\(path)': \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw InputError("the store's lock file '\(path)' is not a regular file")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(fd)
            throw InputError(busy
                ? "the store '\(storePath)' is being written by another process (a running 'fetchsched serve' or another 'ingest'): "
                    + "send the events to that service (POST /v1/events), or stop it first"
                : "cannot lock the store '\(storePath)': \(String(cString: strerror(errno)))")
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
