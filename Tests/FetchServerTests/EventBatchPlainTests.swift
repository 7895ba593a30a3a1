@testable import FetchAPI
import FetchCore
import Foundation
import Testing

/// The plain reader of event batches (``API/EventBatch/plain(_:)``) either gives what Foundation's
/// decoder gives, or nothing and leaves the body to the decoder.
struct EventBatchPlainTests {
    /// A batch as comparable text.
    static func text(_ batch: API.EventBatch) -> String {
        batch.events.map { e in
            [e.id, e.user, e.timestamp, e.event, e.app ?? "<nil>", e.value ?? "<nil>"].map { "[\($0)]" }.joined()
        }.joined(separator: "\n")
    }

    static func plain(_ body: [UInt8]) -> API.EventBatch? {
        body.withUnsafeBytes { API.EventBatch.plain($0) }
    }

    /// A plain body: fields in any order, optional fields absent, null or strings, space anywhere.
    static func body(_ rng: inout SplitMix64) -> String {
        let texts = ["a", "user-0001", "2025-01-06T08:00:00+01:00", "open", "com.example.news", "wifi", "é 日本", "", " spaced "]
        func space() -> String { rng.chance(0.3) ? [" ", "\n", "\t", "\r\n", "  "][rng.int(in: 0...4)] : "" }
        let events = (0..<rng.int(in: 0...6)).map { _ -> String in
            var fields = ["id", "user", "timestamp", "event"].map { "\"\($0)\"\(space()):\(space())\"\(texts[rng.int(in: 0...8)])\"" }
            for optional in ["app", "value"] where rng.chance(0.7) {
                fields.append("\"\(optional)\":\(space())" + (rng.chance(0.3) ? "null" : "\"\(texts[rng.int(in: 0...8)])\""))
            }
            for i in stride(from: fields.count - 1, to: 0, by: -1) { fields.swapAt(i, rng.int(in: 0...i)) }
            return "{\(space())" + fields.joined(separator: "\(space()),\(space())") + "\(space())}"
        }
        return "\(space()){\(space())\"events\"\(space()):\(space())[\(space())" + events.joined(separator: ",\(space())") + "\(space())]\(space())}\(space())"
    }

    /// Edits that take a body out of the plain form, or out of JSON.
    static func mutate(_ body: String, _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = Array(body.utf8)
        let edits: [String] = ["\\u0041", "\\\"", "1", "null", "\"extra\":\"x\",", "\"id\":\"dup\",", "{", "}", ",", "\u{01}", "true", "[", "]"]
        for _ in 0..<rng.int(in: 1...3) {
            switch rng.int(in: 0...3) {
            case 0 where !bytes.isEmpty: bytes.remove(at: rng.int(in: 0...(bytes.count - 1)))
            case 1 where !bytes.isEmpty: bytes[rng.int(in: 0...(bytes.count - 1))] = UInt8(truncatingIfNeeded: rng.next())
            case 2 where !bytes.isEmpty: bytes.removeLast(rng.int(in: 0...(bytes.count - 1)))
            default: bytes.insert(contentsOf: Array(edits[rng.int(in: 0...(edits.count - 1))].utf8), at: rng.int(in: 0...bytes.count))
            }
        }
        return bytes
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aPlainBodyIsReadAsTheDecoderReadsIt(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let body = Array(Self.body(&rng).utf8)
            let decoded = try JSONDecoder().decode(API.EventBatch.self, from: Data(body))
            let plain = try #require(Self.plain(body), "\(String(decoding: body, as: UTF8.self))")
            #expect(Self.text(plain) == Self.text(decoded))
        }
    }

    @Test(arguments: [4, 5, 6] as [UInt64])
    func anyOtherBodyIsLeftToTheDecoderOrReadAsItReadsIt(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var left = 0
        for _ in 0..<2_000 {
            let body = Self.mutate(Self.body(&rng), &rng)
            guard let plain = Self.plain(body) else { left += 1; continue }
            let decoded = try? JSONDecoder().decode(API.EventBatch.self, from: Data(body))
            #expect(decoded.map(Self.text) == Self.text(plain), "\(String(decoding: body, as: UTF8.self))")
        }
        #expect(left > 1_000, "most edits take a body out of the plain form")
    }

    /// Bodies one step from the plain form, each of which the reader must leave to the decoder.
    @Test(arguments: [
        #"{"events":[{"id":,"user":"u","timestamp":"t","event":"open"}]}"#,
        #"{"events":[{"app":,"id":"a","user":"u","timestamp":"t","event":"open"}]}"#,
        #"{"events":[{"id":"a","user":"u","timestamp":"t","event":"open","value":}]}"#,
        #"{"events":[{"id":"a","id":"b","user":"u","timestamp":"t","event":"open"}]}"#,
        #"{"events":[{"id":"a","user":"u","timestamp":"t","event":"open","extra":"x"}]}"#,
        #"{"events":[{"id":"a\u0041","user":"u","timestamp":"t","event":"open"}]}"#,
        #"{"events":[{"id":"a","user":"u","timestamp":"t","event":"open","value":5}]}"#,
        #"{"events":[{"id":"a","user":"u","timestamp":"t"}]}"#,
        #"{"events":[{"id":"a","user":"u","timestamp":"t","event":"open"},]}"#,
        #"{"events":[{"id":"a","user":"u","timestamp":"t","event":"open"}]} x"#,
    ])
    func aBodyOutOfThePlainFormIsLeftToTheDecoder(body: String) {
        #expect(Self.plain(Array(body.utf8)) == nil)
    }
}
