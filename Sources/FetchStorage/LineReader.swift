#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file line by line through a fixed buffer, so memory does not grow with the file.
///
/// Its stored state is accessed without dynamic exclusivity checks: it is used for every row of
/// a log, and no method keeps an access open across a call that could start another.
package final class LineReader {
    private let file: UnsafeMutablePointer<FILE>
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var eof = false
    @exclusivity(unchecked) package private(set) var lineNumber = 0
    @exclusivity(unchecked) private(set) var bytesRead = 0
    let size: Int
    private let skipsLongLines: Bool
    /// Whether the line last delivered ended at the end of the file with no newline after it.
    @exclusivity(unchecked) package private(set) var lineUnterminated = false

    /// Opens `path`. With `skipsLongLines` false, a line over ``maxLineBytes`` is delivered (empty,
    /// with ``lineTooLong``) as soon as the buffer fills, without reading the rest of it: a caller
    /// that stops there never reads a huge file to its end first.
    package init(path: String, bufferSize: Int = 1 << 20, skipsLongLines: Bool = true) throws(InputError) {
        // Opened without blocking, then checked: opening a FIFO for reading would otherwise wait
        // for a writer that may never come.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw InputError("cannot open '\(path)': \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw InputError("'\(path)' is not a regular file (a directory, a FIFO or a device is not a log)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        guard let f = fdopen(fd, "rb") else {
            close(fd)
            throw InputError("cannot open '\(path)': \(String(cString: strerror(errno)))")
        }
        self.skipsLongLines = skipsLongLines
        guard st.st_size > 0 else {
            fclose(f)
            throw InputError("'\(path)' is empty: a log holds a header line or at least one event")
        }
        file = f
        size = Int(st.st_size)
        capacity = bufferSize
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        fclose(file)
        buffer.deallocate()
    }

    /// The longest line read whole; a longer one is skipped and delivered empty, with
    /// `lineTooLong` set, so that no input can make the buffer grow without end.
    package static let maxLineBytes = 1 << 20
    /// Whether the line last delivered was longer than ``maxLineBytes`` (and cut to nothing).
    @exclusivity(unchecked) package private(set) var lineTooLong = false

    /// Calls `body` with the next line (without its newline); false at the end of the file.
    package func next(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows -> Bool {
        guard let line = nextLine() else { return false }
        try body(line)
        return true
    }

    /// The next line (without its newline), valid until the next call; nil at the end of the
    /// file. The per-row path of a log read takes lines this way, without a closure per line.
    package func nextLine() -> UnsafeBufferPointer<UInt8>? {
        lineTooLong = false
        lineUnterminated = false
        while true {
            if start < end, let nl = memchr(buffer + start, 10, end - start) {
                let at = buffer.distance(to: nl.assumingMemoryBound(to: UInt8.self))
                lineNumber += 1
                let line = UnsafeBufferPointer(start: buffer + start, count: at - start)
                start = at + 1
                return line
            }
            if eof {
                guard start < end else { return nil }
                lineNumber += 1
                lineUnterminated = true
                let line = UnsafeBufferPointer(start: buffer + start, count: end - start)
                start = end
                return line
            }
            if start == 0 && end == capacity && capacity >= Self.maxLineBytes {
                if skipsLongLines { skipRestOfLine() } else { start = end; eof = true }
                lineNumber += 1
                lineTooLong = true
                return UnsafeBufferPointer(start: buffer, count: 0)
            }
            fill()
        }
    }

    /// Drops the buffer and reads on past the next newline (or to the end of the file).
    private func skipRestOfLine() {
        start = 0
        end = 0
        while !eof {
            let n = fread(buffer, 1, capacity, file)
            bytesRead += n
            if n == 0 { eof = true; return }
            if let nl = memchr(buffer, 10, n) {
                start = buffer.distance(to: nl.assumingMemoryBound(to: UInt8.self)) + 1
                end = n
                return
            }
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
