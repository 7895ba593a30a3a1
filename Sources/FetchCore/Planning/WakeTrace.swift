/// Collects the rows of one moment of a supposed wake, once armed.
///
/// Its stored state is accessed without dynamic exclusivity checks: it is used at every event
/// and every supposed wake of a plan, and no method keeps an access open across a call that
/// could start another.
final class WakeTrace: TraceSink {
    @exclusivity(unchecked) var armed = false
    @exclusivity(unchecked) var rows: [TraceRow] = []

    func record(_ row: TraceRow) {
        if armed { rows.append(row) }
    }
}
