import AsyncAlgorithms
import FetchCore
import FetchStorage
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// The rows of an ingest, streamed through `COPY … FROM STDIN` (``copyRows(_:into:columns:_:row:written:)``).
extension PostgresStore {
    /// Streams every event of `source` through `COPY … FROM STDIN` into `table` (its `columns`,
    /// or all), each row written by `row` with its occurrence number (``Occurrences``) and the
    /// source's names; returns how many rows. A bad row stops the copy with its error.
    ///
    /// The source is read here, inline (it is `inout`), and its rows go a buffer at a time over
    /// a channel to the copy, which runs watched as the other statements are (``watched(_:_:)``):
    /// a connection that closes under the copy (before its last write, or its `CopyDone`) would
    /// otherwise leave the copy, and the ingest, waiting without end.
    nonisolated(nonsending) func copyRows<S: UsageEventSource>(
        _ source: inout S, into table: String, columns: [String] = [], _ conn: PostgresConnection,
        row: (UsageEvent, Int, NameTable, NameTable, inout ByteBuffer) throws -> Void,
        written: () async -> Void = {}
    ) async throws -> Int {
        var occurrences = Occurrences()
        var read = 0
        var failure: (any Error)?
        // The tables are the source's own, filled as it reads: read once, not through the source per row.
        let (users, apps) = (source.users, source.apps)
        // A connection already closed is not asked to start the copy.
        guard !conn.isClosed else { throw closedUnderIngest }
        let buffers = AsyncThrowingChannel<ByteBuffer, any Error>()
        let ended = NIOLockedValueBox(false)  // the copy is over, done or failed: read no further
        let logger = logger
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { ended.withLockedValue { $0 = true }; buffers.finish() }
                    try await self.watched(conn) { conn in
                        try await conn.copyFrom(table: table, columns: columns, logger: logger) { writer in
                            for try await buffer in buffers { try await writer.write(buffer) }
                        }
                    }
                }
                var buffer = ByteBuffer()
                buffer.reserveCapacity(1 << 20)
                do {
                    while let e = try source.next() {
                        try row(e, occurrences.next(e), users, apps, &buffer)
                        read += 1
                        if buffer.readableBytes >= 1 << 20 {
                            await buffers.send(buffer)
                            buffer = ByteBuffer()
                            buffer.reserveCapacity(1 << 20)
                            await written()
                            if ended.withLockedValue({ $0 }) { break }  // the copy failed: its error says why
                        }
                    }
                    if buffer.readableBytes > 0 { await buffers.send(buffer) }
                    buffers.finish()
                } catch {
                    failure = error
                    buffers.fail(error)  // the copy fails with it, and sends CopyFail
                }
                try await group.waitForAll()
            }
        } catch {
            throw failure ?? error
        }
        if let failure { throw failure }
        return read
    }
}
