import FetchCore
import Foundation
import Testing

/// A histogram's pairs are read by hand (`StalenessHistogram.decodePairs`): on any array of
/// numbers, it takes and refuses what decoding them as `[Int32: Int64]` does.
struct StalenessHistogramCodingTests {
    /// The histogram as the generic decoding read it, before.
    struct Generic: Decodable {
        var buckets: [Int32: Int64]
        var count: Int64
    }

    @Test func handReadPairsTakeAndRefuseWhatTheGenericDecodingDoes() throws {
        var rng = SplitMix64(seed: 59, 0x68_69)
        let values: [String] = ["0", "1", "2", "7", "100", "-1", "2147483648", "9223372036854775807", "1.5", "\"3\"", "null"]
        for round in 0..<400 {
            let n = rng.int(in: 0...7)
            let pairs = (0..<n).map { _ in rng.chance(0.8) ? String(rng.int(in: 0...40)) : values[rng.int(in: 0...values.count - 1)] }
            let count = rng.chance(0.5) ? String(rng.int(in: 0...120)) : values[rng.int(in: 0...values.count - 1)]
            let text = Data("{\"buckets\":[\(pairs.joined(separator: ","))],\"count\":\(count)}".utf8)
            let generic = Result { try JSONDecoder().decode(Generic.self, from: text) }
            let histogram = Result { try JSONDecoder().decode(StalenessHistogram.self, from: text) }
            switch generic {
            case .failure:
                #expect(throws: (any Error).self, "round \(round): \(String(decoding: text, as: UTF8.self))") { try histogram.get() }
            case .success(let g):
                // The histogram also checks its buckets and their sum: where it takes them, they are the generic ones.
                if case .success(let h) = histogram { #expect(h.buckets == g.buckets && h.count == g.count, "round \(round)") }
            }
        }
        // Odd pairs and a key without a value are refused in the generic decoding's words.
        for text in ["{\"buckets\":[1,2,3],\"count\":2}"] {
            let error = try #require(throws: DecodingError.self) { try JSONDecoder().decode(StalenessHistogram.self, from: Data(text.utf8)) }
            #expect("\(error)".contains("odd-length array"))
        }
    }
}
