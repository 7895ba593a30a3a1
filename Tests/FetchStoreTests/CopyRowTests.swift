import FetchCore
@testable import FetchPostgres
import NIOCore
import Testing

/// The rows an ingest streams through PostgreSQL's `COPY` are written digit by digit: each
/// number as `String` writes it, each row as the text format reads it.
struct CopyRowTests {
    static func decimal(_ value: Int64) -> String {
        var buffer = ByteBuffer()
        PostgresStore.appendDecimal(value, to: &buffer)
        return buffer.readString(length: buffer.readableBytes)!
    }

    @Test(arguments: [0, 1, -1, 9, 10, -10, 99, 100, 1_700_000_000_000, -840, Int64(Int32.max), Int64.max, Int64.min, Int64.min + 1])
    func aNumberIsWrittenAsStringWritesIt(_ value: Int64) {
        #expect(Self.decimal(value) == String(value))
    }

    @Test func randomNumbersOfEveryWidthAreWrittenAsStringWritesThem() {
        var random = SplitMix64(seed: 37)
        for _ in 0..<10_000 {
            let value = Int64(bitPattern: random.next()) >> Int64.random(in: 0..<64, using: &random)
            #expect(Self.decimal(value) == String(value))
        }
    }

    @Test(arguments: [(false, Int16(0)), (true, Int16(-840)), (false, Int16(765))])
    func aRowHoldsItsFieldsTabSeparatedInOrder(unixForm: Bool, offset: Int16) {
        let e = UsageEvent(time: Instant(millis: 1_736_150_400_123), user: 0, app: 3, kind: .battery, value: -7,
                           offsetMinutes: offset, unixForm: unixForm)
        var buffer = ByteBuffer()
        PostgresStore.appendCopyRow(e, occurrence: 12, to: &buffer) { $0.writeString("u\\1") } app: { $0.writeString("42") }
        #expect(buffer.readString(length: buffer.readableBytes)
                == "u\\1\t1736150400123\t\(e.kind.rawValue)\t42\t-7\t12\t\(offset)\t\(unixForm ? "t" : "f")\n")
    }
}
