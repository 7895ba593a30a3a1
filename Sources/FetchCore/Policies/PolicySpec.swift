/// Every policy the command line and the service know, registered in this one place: its name
/// as written (a pattern for those with a parameter), what it does, and how a name makes it.
public enum PolicySpec {
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        let make: @Sendable (String) -> (any FetchPolicy)?
    }

    public static let registry: [Entry] = [
        Entry(name: "none", summary: "never fetches in the background") { $0 == "none" ? NonePolicy() : nil },
        Entry(name: "fixed:<duration>", summary: "fetches every app every period (at least 1s)") { text in
            guard text.hasPrefix("fixed:"), let ms = DurationText.parse(String(text.dropFirst(6))), ms >= Millis.second else { return nil }
            return FixedPolicy(period: ms, name: text)
        },
        Entry(name: "ios", summary: "a model of iOS Background App Refresh") { $0 == "ios" ? IOSPolicy() : nil },
        Entry(name: "android", summary: "a model of Android's background limits (standby buckets, Doze, 15-minute periodic work)") { $0 == "android" ? AndroidPolicy() : nil },
    ] + ValueRuleFamilies.adaptive + [
        Entry(name: "adaptive-v1", summary: "the hand-built policy adaptive was before the value rule: habits, a minimum price, a dual price") {
            $0 == "adaptive-v1" ? AdaptivePolicy() : nil
        },
        Entry(name: "adaptive-v1:<x>", summary: "adaptive-v1 with its own minimum of expected rescues per joule (more than 0, at most 10)") { text in
            guard text.hasPrefix("adaptive-v1:"), let price = decimal(text.dropFirst(12)), price > 0,
                  price <= InputBounds.maxRescuesPerJoule else { return nil }
            return AdaptivePolicy(minRescuesPerJoule: price, label: text)
        },
        Entry(name: "adaptive-v1@<share>",
              summary: "adaptive-v1 aiming at a share (more than 0, at most 1) of the daily budget, its price steered to it") { text in
            guard text.hasPrefix("adaptive-v1@"), let share = decimal(text.dropFirst(12)), share > 0, share <= 1 else { return nil }
            return AdaptivePolicy(budgetShare: share, label: text)
        },
        Entry(name: "learned", summary: "adaptive-v1 weighing by the learned model's chance (online logistic regression)") {
            $0 == "learned" ? AdaptivePolicy(learns: true, label: "learned") : nil
        },
        Entry(name: "learned:<x>", summary: "learned with its own minimum of expected rescues per joule (more than 0, at most 10)") { text in
            guard text.hasPrefix("learned:"), let price = decimal(text.dropFirst(8)), price > 0,
                  price <= InputBounds.maxRescuesPerJoule else { return nil }
            return AdaptivePolicy(minRescuesPerJoule: price, learns: true, label: text)
        },
        Entry(name: "counts", summary: "the counting baseline: plain per-app counts, fetch past a threshold") {
            $0 == "counts" ? CountsPolicy() : nil
        },
        Entry(name: "counts:<x>", summary: "the counting baseline with its own threshold x (more than 0, at most 1)") { text in
            guard text.hasPrefix("counts:"), let t = decimal(text.dropFirst(7)), t > 0, t <= 1 else { return nil }
            return CountsPolicy(threshold: t, label: text)
        },
        Entry(name: "appm", summary: "a published peer: APPM, prefetching at each unlock the 3 apps its sequence model ranks first") {
            $0 == "appm" ? APPMPolicy() : nil
        },
        Entry(name: "appm:<k>", summary: "appm prefetching k apps (1 to 16) at each unlock") { text in
            guard text.hasPrefix("appm:"), text.dropFirst(5).allSatisfy(isDigit), let k = Int(text.dropFirst(5)), k >= 1,
                  k <= APPMPolicy.maxApps else { return nil }
            return APPMPolicy(apps: k, label: text)
        },
        Entry(name: "ebc", summary: "a published peer: EBC, usage probability against a threshold, stricter per byte on cellular") {
            $0 == "ebc" ? EBCPolicy() : nil
        },
        Entry(name: "ebc:<x>", summary: "ebc with its own threshold x (more than 0, at most 1)") { text in
            guard text.hasPrefix("ebc:"), let t = decimal(text.dropFirst(4)), t > 0, t <= 1 else { return nil }
            return EBCPolicy(threshold: t, label: text)
        },
    ] + ValueRuleFamilies.entries + [
        Entry(name: "push-adaptive", summary: "plans silent pushes at content updates, fetches nothing itself") {
            $0 == "push-adaptive" ? PushAdaptivePolicy(alsoFetch: false) : nil
        },
        Entry(name: "adaptive+push", summary: "push-adaptive that also fetches as adaptive-v1 does") {
            $0 == "adaptive+push" ? PushAdaptivePolicy(alsoFetch: true) : nil
        },
        Entry(name: "oracle", summary: "knows the future opens and each fetch's draw: the upper bound") { $0 == "oracle" ? OraclePolicy() : nil },
        Entry(name: "oracle:opens", summary: "knows the future opens, not the draws: the bound for prediction alone") {
            $0 == "oracle:opens" ? OraclePolicy(knowsDraws: false) : nil
        },
        // Made by `parse(_:launch:)` only: a process is started by the caller that may start one.
        Entry(name: "exec:<command>", summary: "your own policy: a process speaking JSON Lines (docs/policies.md)") { _ in nil },
    ]

    /// A knob's number: plain decimal digits with an optional point and exponent (`0.5`, `2e-3`).
    /// Swift's `Double(_:)` also reads `0x1p-3`, `inf` and `nan`, which no knob means.
    static func decimal(_ text: Substring) -> Double? {
        guard let first = text.first, isDigit(first) || first == ".",
              text.allSatisfy({ isDigit($0) || ".eE+-".contains($0) }) else { return nil }
        return Double(text)
    }

    @Sendable static func isDigit(_ c: Character) -> Bool { ("0"..."9").contains(c) }

    /// Why `text` names no policy, for a person: a family's knob out of its range or not a
    /// number names the family and its range; anything else lists the known policies.
    public static func problem(with text: String) -> String {
        let shown = InputBounds.printable(text)
        for entry in registry {
            guard let cut = entry.name.firstIndex(where: { $0 == ":" || $0 == "@" }), entry.name[cut...].hasSuffix(">"),
                  !entry.name.hasPrefix("exec:") else { continue }
            let family = entry.name[...cut]
            if text.hasPrefix(family) {
                let value = InputBounds.printable(String(text.dropFirst(family.count)))
                return "policy '\(shown)': '\(value)' is not a value of \(entry.name) (\(entry.summary))"
            }
        }
        return "unknown policy '\(shown)' (known: \(known.joined(separator: ", ")))"
    }

    /// The registered names, in order.
    public static let known = registry.map(\.name)

    /// One line per policy, for `--help`.
    public static let helpText = registry.map { "\($0.name): \($0.summary)" }.joined(separator: "; ")

    /// The policy a name makes; `exec:<command>` only with `launch`, which starts the process
    /// (the service passes none, so a request can never start one).
    public static func parse(_ text: String, launch: ((String) throws -> any PolicyPeer)? = nil) rethrows -> (any FetchPolicy)? {
        if let command = ExecPolicy.command(in: text) {
            return try launch.map { ExecPolicy(command: command, peer: try $0(command)) }
        }
        for entry in registry {
            if let p = entry.make(text) { return p }
        }
        return nil
    }
}
