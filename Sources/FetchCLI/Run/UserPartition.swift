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
/// Each bucket is a ``TemporaryFile`` of the directory given (`TMPDIR` by default): nothing is
/// left behind however the process ends. The events are stored as their bytes, for this process only.
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
    private var files: [TemporaryFile] = []
    private var buffers: [[UsageEvent]]
    /// Events written to each bucket's file.
    private var written: [Int]

    var buckets: Int { files.count }

    init(directory: String = TemporaryFile.directory, buckets: Int = UserPartition.defaultBuckets) throws {
        // Events go to disk as their bytes: a layout with no references, the same for the whole run.
        precondition(_isPOD(UsageEvent.self))
        self.directory = directory
        buffers = Array(repeating: [], count: buckets)
        written = Array(repeating: 0, count: buckets)
        for _ in 0..<buckets {
            guard let file = TemporaryFile(directory: directory, prefix: "fetchsched-by-user") else {
                throw failure("cannot create a temporary file")
            }
            files.append(file)
        }
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
            guard files[b].read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[..<(count * stride)]),
                                at: 0) else { throw failure("cannot read back a temporary file") }
            initialized = count
        }
    }

    private func flush(_ b: Int) throws {
        guard !buffers[b].isEmpty else { return }
        let offset = written[b] * MemoryLayout<UsageEvent>.stride
        guard buffers[b].withUnsafeBytes({ files[b].write($0, at: offset) }) else {
            throw failure("cannot write a temporary file (is the disk full?)")
        }
        written[b] += buffers[b].count
        buffers[b].removeAll(keepingCapacity: true)
    }

    private func failure(_ what: String) -> CLIError { TemporaryFile.failure(what, in: directory) }
}
