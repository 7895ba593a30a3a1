import FetchCore

/// The events of one log file, canonical CSV or JSON Lines (by extension `.jsonl`/`.ndjson`,
/// or a first line that starts with `{`).
///
/// Its stored state is accessed without dynamic exclusivity checks: it is used for every row of
/// a log, and no method keeps an access open across a call that could start another.
final class LogFileSource {
    let path: String
    private let reader: LineReader
    @exclusivity(unchecked) private var csv: CSVLineParser
    @exclusivity(unchecked) private var json: JSONLineParser
    @exclusivity(unchecked) private var isJSON = false
    @exclusivity(unchecked) private var started = false

    /// Without `skipsLongLines` (no `--skip-invalid`), a line over the limit stops the read as
    /// soon as it is seen, instead of after reading to its end.
    init(path: String, decoder: RowDecoder, skipsLongLines: Bool = true) throws(InputError) {
        self.path = path
        reader = try LineReader(path: path, skipsLongLines: skipsLongLines)
        csv = CSVLineParser(decoder: decoder)
        json = JSONLineParser(decoder: decoder)
        isJSON = path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson")
    }

    var line: Int { reader.lineNumber }
    var bytesRead: Int { reader.bytesRead }
    var size: Int { reader.size }

    /// The next event; a bad row throws its problem, and the caller may skip it and go on.
    func next() throws(RowProblem) -> UsageEvent? {
        while let line = reader.nextLine() {
            if let event = try parse(line) { return event }  // nil: a blank line or the header
        }
        return nil
    }

    private func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> UsageEvent? {
        if reader.lineTooLong {
            throw RowProblem(.badValue, "the line is longer than \(LineReader.maxLineBytes) bytes")
        }
        if !started {
            started = true
            if line.first == UInt8(ascii: "{") { isJSON = true }
            if !isJSON {
                try CSVLineParser.checkHeader(line)
                return nil
            }
        }
        return isJSON ? try json.parse(line) : try csv.parse(line)
    }
}
