#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read or write of a whole buffer through system calls that may do part of it: the one loop
/// that every file and stream writer of the project uses (temporary files, standard output, the
/// private copy of an imported database).
package enum WholeTransfer {
    /// Runs `step` (a `write`, `pwrite` or `pread` from `done` bytes on, returning what it moved)
    /// until `count` bytes are done, again after an interruption; false when a step fails, with
    /// `errno` set (`EIO` when it moved nothing).
    package static func run(_ count: Int, _ step: (_ done: Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let n = step(done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                if n == 0 { errno = EIO }
                return false
            }
            done += n
        }
        return true
    }
}
