#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FetchStorage
import Foundation

/// A temporary file of a directory, created by `mkstemp` and unlinked at once: nothing is left
/// behind however the process ends, and no existing path is ever written. It is read and written
/// at offsets (`pread`, `pwrite`), so readers share no position.
final class TemporaryFile: @unchecked Sendable {
    private let fd: Int32

    /// A new empty file in `directory`, its name starting with `prefix`; nil with `errno` set
    /// when it cannot be made.
    init?(directory: String, prefix: String) {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template += Array("\(prefix).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        self.fd = fd
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }

    deinit { close(fd) }

    /// Where temporary files go: `TMPDIR` when it is set and not empty, else `/tmp`. (Foundation's
    /// `NSTemporaryDirectory()` gives `/` for an empty `TMPDIR`.)
    static var directory: String { directory(in: ProcessInfo.processInfo.environment) }

    /// ``directory`` under the environment `environment`.
    static func directory(in environment: [String: String]) -> String {
        guard let dir = environment["TMPDIR"], !dir.isEmpty else { return "/tmp/" }
        return dir.hasSuffix("/") ? dir : dir + "/"
    }

    /// Why `user` (`--by-user`, `merge`) cannot go on: `what` failed in `directory` (with
    /// `errno`'s reason).
    static func failure(_ what: String, in directory: String, for user: String = "--by-user") -> CLIError {
        let code = errno
        let shown = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return CLIError("\(user): \(what) in \(shown): \(String(cString: strerror(code))); set TMPDIR to a directory with room")
    }

    /// Writes all of `bytes` at `offset`; false with `errno` set when the system would not.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        WholeTransfer.run(bytes.count) { done in pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
    }

    /// Fills `buffer` from `offset`; false with `errno` set when the system would not (or the
    /// file ends first).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        WholeTransfer.run(buffer.count) { done in pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done)) }
    }
}
