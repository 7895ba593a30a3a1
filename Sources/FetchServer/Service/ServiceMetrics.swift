import Metrics

/// The service's own metrics (swift-metrics; Prometheus in `fetchsched serve`).
struct ServiceMetrics: Sendable {
    let eventsAccepted: Counter
    let eventsDuplicate: Counter
    let plans: Counter
    let wakes: Counter
    let fetchReports: Counter
    let sessionBuilds: Counter
    let sessionEvictions: Counter
    let requestErrors: Counter
    let storeUnavailable: Counter

    init(factory: MetricsFactory) {
        eventsAccepted = Counter(label: "fetchsched_events_accepted_total", factory: factory)
        eventsDuplicate = Counter(label: "fetchsched_events_duplicate_total", factory: factory)
        plans = Counter(label: "fetchsched_plans_total", factory: factory)
        wakes = Counter(label: "fetchsched_wakes_total", factory: factory)
        fetchReports = Counter(label: "fetchsched_fetch_reports_total", factory: factory)
        sessionBuilds = Counter(label: "fetchsched_session_builds_total", factory: factory)
        sessionEvictions = Counter(label: "fetchsched_session_evictions_total", factory: factory)
        requestErrors = Counter(label: "fetchsched_server_errors_total", factory: factory)
        storeUnavailable = Counter(label: "fetchsched_store_unavailable_total", factory: factory)
    }
}
