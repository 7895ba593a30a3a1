/// Parses policy names as written on the command line: `none`, `fixed:15m`, `oracle`.
public enum PolicySpec {
    public static let known = ["none", "fixed:<duration>", "ios", "android", "adaptive", "push-adaptive", "adaptive+push", "oracle", "oracle:opens"]

    public static func parse(_ text: String) -> (any FetchPolicy)? {
        switch text {
        case "none": return NonePolicy()
        case "oracle": return OraclePolicy()
        case "oracle:opens": return OraclePolicy(knowsDraws: false)
        case "adaptive": return AdaptivePolicy()
        case "ios": return IOSPolicy()
        case "android": return AndroidPolicy()
        case "push-adaptive": return PushAdaptivePolicy(alsoFetch: false)
        case "adaptive+push": return PushAdaptivePolicy(alsoFetch: true)
        default:
            if text.hasPrefix("adaptive:"), let price = Double(text.dropFirst(9)), price > 0, price <= InputBounds.maxRescuesPerJoule {
                var p = AdaptivePolicy(minRescuesPerJoule: price)
                p.label = text
                return p
            }
            if text.hasPrefix("fixed:"), let ms = DurationText.parse(String(text.dropFirst(6))), ms >= Millis.second {
                return FixedPolicy(period: ms, name: text)
            }
            return nil
        }
    }
}
