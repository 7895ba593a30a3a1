@testable import FetchCore
import Testing

/// The parser's fast paths (the log's own timestamp form, event kinds by length, names by
/// bytes) give exactly what the general code gives, on seeded random inputs near their edges.
struct ParsingFastPathTests {
    func withBytes<T>(_ text: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try text.withUnsafeBufferPointer { try body($0) }
    }

    func outcome(_ f: () throws(RowProblem) -> TimestampParser.Parsed) -> String {
        do { let p = try f(); return "\(p.millis) \(p.offsetMinutes) \(p.unixForm)" } catch { return "error: \(error.message)" }
    }

    /// A timestamp in the log's own form with, now and then, one character or field pushed out
    /// of range, so both the fast path's acceptance and its hand-off to the general parser are seen.
    func canonicalLike(_ rng: inout SplitMix64) -> [UInt8] {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = rng.int(in: 1965...2105), month = rng.int(in: 0...13), day = rng.int(in: 0...32)
        let ms = rng.int(in: 0...999)
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        var text = "\(year)-\(two(month))-\(two(day))T\(two(rng.int(in: 0...25))):\(two(rng.int(in: 0...61))):\(two(rng.int(in: 0...61))).\(msText)"
        text += rng.chance(0.2) ? "Z" : "\(rng.chance(0.5) ? "+" : "-")\(two(rng.int(in: 0...20))):\(two(rng.int(in: 0...61)))"
        var bytes = Array(text.utf8)
        if rng.chance(0.2) {
            bytes[rng.int(in: 0...(bytes.count - 1))] = Array("0123456789-:.TZ+ xa/".utf8)[rng.int(in: 0...19)]
        }
        return bytes
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theLogsOwnTimestampFormReadsAsTheGeneralParserReadsIt(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var fast = 0, sameDate = 0
        var lastDay = TimestampParser.DayCache(), previous: [UInt8] = []
        for _ in 0..<20_000 {
            var bytes = canonicalLike(&rng)
            // Often the date of the timestamp before, as in a log's rows, so the day cache is used.
            if rng.chance(0.5) && previous.count >= 10 && bytes.count >= 10 { bytes.replaceSubrange(0..<10, with: previous[0..<10]) }
            let repeated = previous.count >= 10 && bytes.count >= 10 && bytes[0..<10] == previous[0..<10]
            previous = bytes
            withBytes(bytes) { b in
                // The general parsers, dispatched as before the fast path existed.
                let isISO = b.count >= 10 && b[4] == UInt8(ascii: "-")
                let general = outcome { () throws(RowProblem) in try isISO ? TimestampParser.iso(b) : TimestampParser.unix(b) }
                #expect(outcome { () throws(RowProblem) in try TimestampParser.parse(b, lastDay: &lastDay) } == general, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(outcome { () throws(RowProblem) in try TimestampParser.parse(b) } == general, "\(String(decoding: bytes, as: UTF8.self))")
                var fresh = TimestampParser.DayCache()
                if (try? TimestampParser.canonical(b, lastDay: &fresh)) != nil {
                    fast += 1
                    if repeated { sameDate += 1 }
                }
                if let p = try? TimestampParser.parse(b) {
                    #expect(abs(Int(p.offsetMinutes)) <= 18 * 60 && InputBounds.timestamps.contains(p.millis))
                }
            }
        }
        #expect(fast > 1_000 && sameDate > 1_000)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func eventKindsAreFoundByNameAndNothingElse(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let names = EventKind.allCases.map(\.logName)
        for kind in EventKind.allCases {
            #expect(withBytes(Array(kind.logName.utf8)) { RowDecoder.kind($0) } == kind)
        }
        for _ in 0..<20_000 {
            var bytes = Array(names[rng.int(in: 0...(names.count - 1))].utf8)
            switch rng.int(in: 0...3) {
            case 0: bytes[rng.int(in: 0...(bytes.count - 1))] = UInt8(rng.int(in: 95...122))
            case 1: bytes.removeLast(rng.int(in: 1...bytes.count))
            case 2: bytes.append(UInt8(rng.int(in: 95...122)))
            default: break
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(withBytes(bytes) { RowDecoder.kind($0) } == EventKind.allCases.first { $0.logName == text }, "\(text)")
        }
    }

    /// A row cut at every comma, as the word-at-a-time search must cut it.
    func splitOutcome(_ line: [UInt8], _ decoder: inout RowDecoder) -> String {
        let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(Array.init)
        if fields.count < 5 { return "error: expected 5 fields (timestamp,user,app,event,value), got \(fields.count)" }
        if fields.count > 5 { return "error: expected 5 fields, got more" }
        do { return "\(try decoder.decode(fields: fields))" } catch { return "error: \(error.message)" }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func rowsAreCutAtTheirCommasWhereverTheyFall(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var parser = CSVLineParser(decoder: RowDecoder())
        var reference = RowDecoder(users: parser.decoder.users, apps: parser.decoder.apps)
        let alphabet = Array(",,,-a0.:+Z_".utf8)
        var good = 0
        for _ in 0..<20_000 {
            // A good row with commas added, dropped or moved, or bytes of the alphabet alone.
            var line = Array("2025-01-0\(rng.int(in: 1...9))T10:00:00.000+01:00,user-\(rng.int(in: 0...9)),com.a,open,".utf8)
            if rng.chance(0.3) { line = (0..<rng.int(in: 1...40)).map { _ in alphabet[rng.int(in: 0...(alphabet.count - 1))] } }
            for _ in 0..<rng.int(in: 0...2) {
                let i = rng.int(in: 0...(line.count - 1))
                switch rng.int(in: 0...2) {
                case 0: line.insert(UInt8(ascii: ","), at: i)
                case 1: line.remove(at: i)
                default: line[i] = alphabet[rng.int(in: 0...(alphabet.count - 1))]
                }
                if line.isEmpty { line = [UInt8(ascii: "a")] }
            }
            let parsed = line.withUnsafeBufferPointer { b in
                do throws(RowProblem) { return try parser.parse(b).map { "\($0)" } ?? "blank" } catch { return "error: \(error.message)" }
            }
            #expect(parsed == splitOutcome(line, &reference), "\(String(decoding: line, as: UTF8.self))")
            if !parsed.hasPrefix("error") { good += 1 }
        }
        #expect(good > 1_000)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func namesByBytesGetTheIdsTheirTextGets(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let byBytes = NameTable(), byText = NameTable()
        var seen: Set<[UInt8]> = []
        for _ in 0..<20_000 {
            // Short and long names, some sharing prefixes, some invalid UTF-8 that repairs to one text.
            let length = rng.int(in: 0...40)
            var bytes = (0..<length).map { _ in UInt8(rng.int(in: 97...100)) }
            if rng.chance(0.05) { bytes.append(UInt8(rng.int(in: 0xF8...0xFF))) }
            let text = String(decoding: bytes, as: UTF8.self)
            let known = withBytes(bytes) { byBytes.existingID(bytes: $0) }
            // Found by its bytes only as the name's own bytes, or a spelling already given to
            // `id(bytes:)`: another spelling of a known text (here invalid UTF-8) goes back to
            // the caller's checks first.
            #expect(known == byText.existingID(text).flatMap { seen.contains(bytes) || text.utf8.elementsEqual(bytes) ? $0 : nil })
            let id = withBytes(bytes) { byBytes.id(bytes: $0) }
            seen.insert(bytes)
            #expect(id == byText.id(text))
            #expect(byBytes[id] == text)
        }
        #expect(byBytes.names == byText.names)
        #expect(byBytes.count > 1_000)
    }
}

/// Quotes: a field that starts with one is quoted; one inside a field is a plain character.
struct CSVQuoteTests {
    @Test(arguments: [
        ("1702252236,us\"er,com.a,open,", "us\"er", "com.a"),
        ("1702252236,\"u,1\",com.a,open,", "u,1", "com.a"),
        ("1702252236,u,\"com.\"\"a\"\"\",open,", "u", "com.\"a\""),
        ("1702252236,u,com.a\",open,", "u", "com.a\""),
    ])
    func quotesAreReadAsRFC4180Says(line: String, user: String, app: String) throws {
        let decoder = RowDecoder()
        var parser = CSVLineParser(decoder: decoder)
        let e = try #require(try Array(line.utf8).withUnsafeBufferPointer { (b) throws(RowProblem) in try parser.parse(b) })
        #expect(decoder.users[e.user] == user && decoder.apps[e.app] == app)
    }
}
