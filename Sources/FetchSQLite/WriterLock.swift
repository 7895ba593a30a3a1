import FetchCore
import FetchStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One process's claim to write a SQLite store: an exclusive `flock` on the database file
/// itself, held while the store is open and released by the kernel when the process ends,
/// however it ends.
///
/// The service keeps users' engines in memory and does not read versions over SQLite, so a
/// second writer (a CLI `ingest` into the file a service uses, or a second service) would go
/// unseen: it is refused at once instead. The lock is on the file, not on a name: a symbolic
/// link, a hard link or a bind mount reaches the same lock. Readers (`next`, `replay --db`)
/// take no claim.
///
/// SQLite locks with POSIX (`fcntl`) locks, which `flock` neither sees nor disturbs on a local
/// file system. Closing this descriptor would drop the process's POSIX locks on the file, so it
/// is closed only when the lock is released, with the store.
public final class WriterLock: Sendable {
    let fd: Int32
    public let path: String

    /// Claims `storePath` for writing, or throws a clear ``InputError`` when another process holds
    /// it. A missing file is made (empty: SQLite makes it a database).
    public init(storePath: String) throws {
        path = storePath
        let shown = InputBounds.printable(storePath)
        let fd = open(storePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw InputError("cannot open the store '\(shown)': \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw InputError("the store '\(shown)' is not a regular file")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(fd)
            throw InputError(busy
                ? "the store '\(shown)' is being written by another process (a running 'fetchsched serve' or another 'ingest'): "
                    + "send the events to that service (POST /v1/events), or stop it first"
                : "cannot lock the store '\(shown)': \(String(cString: strerror(errno)))")
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
