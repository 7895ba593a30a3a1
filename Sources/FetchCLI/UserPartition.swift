#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FetchCore
import Foundation

/// An input's events split by user into buckets on disk, in one streaming pass, so that a replay
/// can then take the users a bucket at a time (`--by-user`).
///
/// Each bucket is a temporary file of the directory given (`TMPDIR` by default), created by
/// `mkstemp` and unlinked at once: nothing is left behind however the process ends, and no
/// existing path is ever written. The events are stored as their bytes, for this process only.
///
/// Written from one thread; once ``finishWriting()`` has returned, only read (`pread` at its
/// own offsets), from any thread: hence `@unchecked Sendable`.
final class UserPartition: @unchecked Sendable {
    /// Buckets of an input: a bucket's events are in memory while its users replay, so their
    /// number divides that memory; each is a file open until the replay ends, well within the
    /// smallest common limit on open files (256 on macOS).
    static let defaultBuckets = 128
    /// Events kept per bucket before they are written.
    static let bufferEvents = 2048

    let directory: String
    private var files: [Int32] = []
    private var buffers: [[UsageEvent]]
    /// Events written to each bucket's file.
    private var written: [Int]

    var buckets: Int { files.count }

    init(directory: String = NSTemporaryDirectory(), buckets: Int = UserPartition.defaultBuckets) throws {
        // Events go to disk as their bytes: a layout with no references, the same for the whole run.
        precondition(_isPOD(UsageEvent.self))
        self.directory = directory
        buffers = Array(repeating: [], count: buckets)
        written = Array(repeating: 0, count: buckets)
        for _ in 0..<buckets {
            var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
            template += Array("fetchsched-by-user.XXXXXX".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw failure("cannot create a temporary file") }
            files.append(fd)
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
    }

    deinit {
        for fd in files { close(fd) }
    }

    /// Adds an event to its user's bucket.
    func add(_ e: UsageEvent) throws {
        let b = Int(e.user) % buffers.count
        buffers[b].append(e)
        if buffers[b].count >= Self.bufferEvents { try flush(b) }
    }

    /// Writes every bucket's events still in memory; after this, the buckets can be read.
    func finishWriting() throws {
        for b in buffers.indices { try flush(b) }
    }

    /// Every event of bucket `b`, in the order added.
    func events(inBucket b: Int) throws -> [UsageEvent] {
        let count = written[b], stride = MemoryLayout<UsageEvent>.stride
        return try [UsageEvent](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var done = 0
            while done < count * stride {
                let n = pread(files[b], raw.baseAddress! + done, count * stride - done, off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw failure("cannot read back a temporary file") }
                done += n
            }
            initialized = count
        }
    }

    private func flush(_ b: Int) throws {
        guard !buffers[b].isEmpty else { return }
        let offset = written[b] * MemoryLayout<UsageEvent>.stride
        try buffers[b].withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = pwrite(files[b], raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw failure("cannot write a temporary file (is the disk full?)") }
                done += n
            }
        }
        written[b] += buffers[b].count
        buffers[b].removeAll(keepingCapacity: true)
    }

    private func failure(_ what: String) -> CLIError {
        let code = errno
        let shown = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return CLIError("--by-user: \(what) in \(shown): \(String(cString: strerror(code))); set TMPDIR to a directory with room")
    }
}
