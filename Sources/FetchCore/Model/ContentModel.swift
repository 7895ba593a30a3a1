/// How an app's content changes on its server (docs/metrics.md, "Freshness").
public enum ContentModel: Hashable, Sendable, CustomStringConvertible {
    /// Content is updated continuously: fresh means refreshed within this many milliseconds.
    case window(Int64)
    /// The server publishes updates as a seeded Poisson process with this mean gap (ms).
    case updates(Int64)

    /// Parses `window:30m` or `updates:45m` (a mean gap of at least ``InputBounds/minUpdateGap``).
    public init?(text: String) {
        if text.hasPrefix("window:"), let ms = DurationText.parse(String(text.dropFirst(7))), ms > 0 {
            self = .window(ms)
        } else if text.hasPrefix("updates:"), let ms = DurationText.parse(String(text.dropFirst(8))), ms >= InputBounds.minUpdateGap {
            self = .updates(ms)
        } else {
            return nil
        }
    }

    /// The earliest content time that makes an open at `open` fresh, given the server's last
    /// update before it (ignored for `window` content).
    public func freshFrom(open: Int64, lastUpdate: Int64) -> Int64 {
        switch self {
        case .window(let w): open - w
        case .updates: lastUpdate
        }
    }

    public var description: String {
        switch self {
        case .window(let ms): "window:\(DurationText.format(ms))"
        case .updates(let ms): "updates:\(DurationText.format(ms))"
        }
    }
}
