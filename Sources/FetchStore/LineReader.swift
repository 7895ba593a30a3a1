#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file line by line through a fixed buffer, so memory does not grow with the file.
final class LineReader {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private var eof = false
    private(set) var lineNumber = 0
    private(set) var bytesRead = 0
    let size: Int

    init(path: String, bufferSize: Int = 1 << 20) throws(InputError) {
        guard let f = fopen(path, "rb") else {
            throw InputError("cannot open '\(path)': \(String(cString: strerror(errno)))")
        }
        file = f
        var st = stat()
        size = fstat(fileno(f), &st) == 0 ? Int(st.st_size) : 0
        capacity = bufferSize
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        fclose(file)
        buffer.deallocate()
    }

    /// Calls `body` with the next line (without its newline); false at the end of the file.
    func next(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows -> Bool {
        while true {
            if start < end, let nl = memchr(buffer + start, 10, end - start) {
                let at = buffer.distance(to: nl.assumingMemoryBound(to: UInt8.self))
                lineNumber += 1
                let line = UnsafeBufferPointer(start: buffer + start, count: at - start)
                start = at + 1
                try body(line)
                return true
            }
            if eof {
                guard start < end else { return false }
                lineNumber += 1
                let line = UnsafeBufferPointer(start: buffer + start, count: end - start)
                start = end
                try body(line)
                return true
            }
            fill()
        }
    }

    private func fill() {
        if start > 0 {
            memmove(buffer, buffer + start, end - start)
            end -= start
            start = 0
        }
        if end == capacity {  // a line longer than the buffer: grow it
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        let n = fread(buffer + end, 1, capacity - end, file)
        end += n
        bytesRead += n
        if n == 0 { eof = true }
    }
}
