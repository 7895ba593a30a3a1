/// Collects the rows of one moment of a supposed wake, once armed.
final class WakeTrace: TraceSink {
    var armed = false
    var rows: [TraceRow] = []

    func record(_ row: TraceRow) {
        if armed { rows.append(row) }
    }
}
