import FetchCore
import FetchResults
import Foundation

/// One replay's rows by user, kept in a ``TemporaryFile`` until its report (``UserRowArchive``):
/// what a replay `--by-user` keeps instead of every user's row in memory, and `merge` instead of
/// the rows of every shard report it reads.
///
/// A row goes to the file as its user retires, in the form a shard report writes it
/// (``ShardReport/makeEncoder()``), so a shard report copies it; memory keeps its user, place and
/// length. Sealed, the places are sorted by user, and each row is read back when the report
/// comes to it. Written by the replay's one thread; once sealed, only read (`pread`, a decoder
/// per row), from any thread: hence `@unchecked Sendable`.
final class UserRowFile: UserRowArchive, SortedUserRows, @unchecked Sendable {
    private struct Entry {
        var user: String
        var offset: Int
        var length: Int
        /// What the row spent and rescued, kept beside its place: a frontier of many users reads it
        /// for every user and policy, and decoding each row for it was most of a population's merge.
        var spent: UserRows.Spent
    }

    private let file: TemporaryFile
    private let directory: String
    /// Who keeps the rows (`--by-user`, `merge`), for the messages.
    private let user: String
    private var entries: [Entry] = []
    /// Rows encoded and not yet written, and the bytes written before them.
    private var pending: [UInt8] = []
    private var written = 0
    /// The sum of the kept rows' days.
    private(set) var days = 0
    private let encoder = ShardReport.makeEncoder()
    /// The first write that failed: the run fails with it (``check()``), and no row is kept after it.
    private var failure: CLIError?

    /// Bytes of encoded rows held before they are written.
    static let bufferBytes = 1 << 16

    init(directory: String = TemporaryFile.directory, for user: String = "--by-user") throws {
        self.directory = directory
        self.user = user
        guard let file = TemporaryFile(directory: directory, prefix: "fetchsched-rows") else {
            throw TemporaryFile.failure("cannot create a temporary file", in: directory, for: user)
        }
        self.file = file
    }

    func append(_ row: ReplayResult.UserRow) {
        guard failure == nil else { return }
        do {
            let bytes = try encoder.encode(row)
            entries.append(Entry(user: row.user, offset: written + pending.count, length: bytes.count, spent: UserRows.Spent(row)))
            pending.append(contentsOf: bytes)
            days += row.days
        } catch {
            failure = CLIError("\(user): cannot encode the row of user '\(InputBounds.printable(row.user))': \(error)")
        }
        if pending.count >= Self.bufferBytes { flush() }
    }

    func sealed() -> any SortedUserRows {
        flush()
        entries.sort { $0.user < $1.user }
        return self
    }

    /// Throws the first write that failed: the rows are then not all there.
    func check() throws {
        if let failure { throw failure }
    }

    var count: Int { entries.count }

    func user(at i: Int) -> String { entries[i].user }

    func row(at i: Int) -> ReplayResult.UserRow {
        guard let row = try? JSONDecoder().decode(ReplayResult.UserRow.self, from: bytes(at: i)) else {
            fatalError("\(user): a row read back from a temporary file in \(directory) is not the row written")
        }
        return row
    }

    func encodedRow(at i: Int) -> Data? { bytes(at: i) }

    func spent(at i: Int) -> UserRows.Spent { entries[i].spent }

    private func bytes(at i: Int) -> Data {
        let e = entries[i]
        var bytes = Data(count: e.length)
        // The file is this process's own, written and checked (``check()``) before any report
        // reads it: a read that fails here is the machine's fault, not the input's.
        guard bytes.withUnsafeMutableBytes({ file.read(into: $0, at: e.offset) }) else {
            fatalError("\(TemporaryFile.failure("cannot read back a temporary file", in: directory, for: user))")
        }
        return bytes
    }

    private func flush() {
        guard !pending.isEmpty, failure == nil else { return }
        if pending.withUnsafeBytes({ file.write($0, at: written) }) {
            written += pending.count
        } else {
            failure = TemporaryFile.failure("cannot write a temporary file (is the disk full?)", in: directory, for: user)
            entries.removeAll()
        }
        pending.removeAll(keepingCapacity: true)
    }
}
