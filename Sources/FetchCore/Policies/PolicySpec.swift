/// Parses policy names as written on the command line: `none`, `fixed:15m`, `oracle`.
public enum PolicySpec {
    public static let known = ["none", "fixed:<duration>", "oracle"]

    public static func parse(_ text: String) -> (any FetchPolicy)? {
        switch text {
        case "none": return NonePolicy()
        case "oracle": return OraclePolicy()
        default:
            if text.hasPrefix("fixed:"), let ms = DurationText.parse(String(text.dropFirst(6))), ms >= Millis.second {
                return FixedPolicy(period: ms, name: text)
            }
            return nil
        }
    }
}
