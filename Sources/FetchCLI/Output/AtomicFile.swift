import Foundation

/// A file written through a buffer to a temporary name and renamed into place on `commit`,
/// so a failed run leaves nothing half-written.
final class AtomicFile {
    let path: String
    private let temporary: String
    private let handle: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8] = []
    private var done = false

    init(path: String) throws {
        self.path = path
        temporary = path + ".partial-\(getpid())"
        guard let h = fopen(temporary, "wb") else {
            throw CLIError("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        handle = h
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    private func flush() {
        _ = buffer.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        buffer.removeAll(keepingCapacity: true)
    }

    func commit() throws {
        flush()
        done = true
        guard fflush(handle) == 0, fclose(handle) == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CLIError("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if !done {
            fclose(handle)
            unlink(temporary)
        }
    }
}
