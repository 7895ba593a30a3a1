#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file by device and inode, whatever name reaches it: the same file under another path, or
/// another file at the same path (a store removed or replaced under the service, an output that
/// is one of the run's inputs).
package struct FileIdentity: Equatable, Sendable {
    package let device: UInt64
    package let inode: UInt64

    /// The file at `path`, links followed; nil when there is none, or, with `regularOnly`, when
    /// it is not a regular file.
    package init?(path: String, regularOnly: Bool = false) {
        var st = stat()
        guard stat(path, &st) == 0, !regularOnly || st.st_mode & S_IFMT == S_IFREG else { return nil }
        (device, inode) = (UInt64(st.st_dev), UInt64(st.st_ino))
    }
}
