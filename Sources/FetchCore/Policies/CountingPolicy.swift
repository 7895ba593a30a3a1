/// A policy whose per-user state is the plain counts of ``OpenCounts``, kept from every event:
/// the counting baseline (``CountsPolicy``) and the published peer EBC (``EBCPolicy``) make and
/// feed them the same way, here.
public protocol CountingPolicy: FetchPolicy where UserState == OpenCounts {}

extension CountingPolicy {
    public static var observesEvents: Bool { true }
    public func makeState() -> OpenCounts { OpenCounts() }

    public func observe(_ event: UsageEvent, state: inout OpenCounts) {
        state.observe(event)
    }
}
