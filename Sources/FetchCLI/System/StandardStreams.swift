#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFetchShims
import FetchStorage
import Foundation
import Synchronization

/// The command's standard output and error, written with `write(2)` and checked:
/// a short or failed write to standard output, or a failed final flush or close, is a clear
/// error and a non-zero exit, never a run that says it succeeded.
///
/// Standard error is written unchecked: where it cannot be written there is nowhere to report
/// anything, and a failure there never stops a command.
enum StandardStreams {
    /// Makes sure the C shim that fills closed standard descriptors is linked in: it runs
    /// before main (``CFetchShims``), before the runtime opens any file of its own, so that a
    /// run started with standard output closed cannot hand descriptor 1 to a file it opens later
    /// (an output's temporary file, a store) and write its report into that file.
    static func holdStandardDescriptors() {
        _ = fetch_shims_reopened_standard_descriptors()
    }

    /// Writes `text` to standard output; a write that fails throws at once, naming the reason.
    static func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` to standard output, as ``write(_:)-(String)`` does. They are buffered, and
    /// written with `write(2)` (no C stream whose errors go unseen) whenever the buffer fills.
    static func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        try pending.withLock { (buffer: inout [UInt8]) throws(CLIError) in
            buffer.append(contentsOf: bytes)
            if buffer.count >= bufferBytes { try drain(&buffer) }
        }
    }

    /// Writes what is buffered and closes standard output, each checked (a full disk may show
    /// only at the close). Called once, when the command has finished.
    static func finish() throws {
        try pending.withLock { (buffer: inout [UInt8]) throws(CLIError) in try drain(&buffer) }
        if close(1) != 0 && errno != EINTR { throw failure(errno) }
    }

    /// Writes `text` and a line break to standard error, unchecked.
    static func error(_ text: String) {
        errorPart(text + "\n")
    }

    /// Writes `text` to standard error as it is, unchecked.
    static func errorPart(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = whole(2, UnsafeRawBufferPointer(bytes)) }
    }

    /// What is written to standard output and not yet handed to the system.
    private static let pending = Mutex<[UInt8]>([])
    private static let bufferBytes = 1 << 16

    private static func drain(_ buffer: inout [UInt8]) throws(CLIError) {
        defer { buffer.removeAll(keepingCapacity: true) }
        let ok = buffer.withUnsafeBytes { whole(1, $0) }
        if !ok { throw failure(errno) }
    }

    /// Writes all of `bytes` to `fd` (``WholeTransfer``); false with `errno` set when the system
    /// would not.
    private static func whole(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        WholeTransfer.run(bytes.count) { done in systemWrite(fd, bytes.baseAddress! + done, bytes.count - done) }
    }

    private static func failure(_ code: Int32) -> CLIError {
        let reason = code == EBADF ? "it is closed or not open for writing" : String(cString: strerror(code))
        return CLIError("cannot write standard output: \(reason); the output is incomplete")
    }
}

/// `write(2)`, by a name ``StandardStreams``' own `write` does not hide.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// A piece of a command's output on standard output, with no line break of its own; a failed
/// write throws (``StandardStreams``).
func standardOutput(_ text: String) throws {
    try StandardStreams.write(text)
}

/// A line on standard error.
func printError(_ text: String) {
    StandardStreams.error(text)
}

/// A line of a command's output on standard output; a failed write throws.
func printLine(_ text: String) throws {
    try StandardStreams.write(text + "\n")
}
