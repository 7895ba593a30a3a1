#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every policy the command line and the service know, by name: the names of the built-in
/// registry's families (``PolicyRegistry/builtIn``), what each does, and how a name makes it.
public enum PolicySpec {
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        let make: @Sendable (String) -> (any FetchPolicy)?

        /// `name` as written (a pattern for one with a parameter), and how a name makes the policy
        /// (nil for a name this entry does not take).
        public init(name: String, summary: String, make: @escaping @Sendable (String) -> (any FetchPolicy)?) {
            self.name = name
            self.summary = summary
            self.make = make
        }

        /// The entry of `pattern` (`counts:<x>`): the text before `<` then a decimal knob in
        /// (0, `most`], made into a policy by `make` with the knob and the name as written.
        public static func knob(_ pattern: String, summary: String, most: Double,
                                _ make: @escaping @Sendable (Double, String) -> any FetchPolicy) -> Entry {
            let prefix = String(pattern.prefix { $0 != "<" })
            return Entry(name: pattern, summary: summary) { text in
                guard text.hasPrefix(prefix), let x = decimal(text.dropFirst(prefix.count)), x > 0, x <= most else { return nil }
                return make(x, text)
            }
        }
    }

    /// Every built-in name, in the registry's order.
    public static var registry: [Entry] { PolicyRegistry.builtIn.entries }

    /// The families `bench --frontier` sweeps between `adaptive` and the value rule over the other
    /// predictors: the counting baseline, fixed periods and the published peers.
    static let swept: [PolicyFamily] = [
        PolicyFamily(name: "counts", entries: [
            Entry(name: "counts", summary: "the counting baseline: plain per-app counts, fetch past a threshold") {
                $0 == "counts" ? CountsPolicy() : nil
            },
            .knob("counts:<x>", summary: "the counting baseline with its own threshold x (more than 0, at most 1)", most: 1) {
                CountsPolicy(threshold: $0, label: $1)
            },
        ], sweeping: ["counts:0.6", "counts:0.45", "counts:0.3", "counts:0.2", "counts:0.13", "counts:0.08", "counts:0.05",
                      "counts:0.03", "counts:0.015"], isBaseline: true, examples: ["counts", "counts:0.05"], scored: CountsPolicy.scored),
        PolicyFamily(name: "fixed", entries: [
            Entry(name: "fixed:<duration>", summary: "fetches every app every period (at least 1s)") { text in
                guard text.hasPrefix("fixed:"), let ms = DurationText.parse(String(text.dropFirst(6))), ms >= Millis.second else { return nil }
                return FixedPolicy(period: ms, name: text)
            },
        ], sweeping: ["fixed:8h", "fixed:4h", "fixed:2h", "fixed:1h", "fixed:30m", "fixed:15m"], examples: ["fixed:15m", "fixed:1m"]),
        PolicyFamily(name: "appm", entries: [
            Entry(name: "appm", summary: "a published peer: APPM, prefetching at each unlock the 3 apps its sequence model ranks first") {
                $0 == "appm" ? APPMPolicy() : nil
            },
            Entry(name: "appm:<k>", summary: "appm prefetching k apps (1 to 16) at each unlock") { text in
                guard text.hasPrefix("appm:"), text.dropFirst(5).allSatisfy(isDigit), let k = Int(text.dropFirst(5)), k >= 1,
                      k <= APPMPolicy.maxApps else { return nil }
                return APPMPolicy(apps: k, label: text)
            },
        ], sweeping: ["appm:1", "appm:2", "appm:3", "appm:4", "appm:6", "appm:8", "appm:12"], isBaseline: true, examples: ["appm", "appm:8"],
           scored: APPMPolicy.scored),
        PolicyFamily(name: "ebc", entries: [
            Entry(name: "ebc", summary: "a published peer: EBC, usage probability against a threshold, stricter per byte on cellular") {
                $0 == "ebc" ? EBCPolicy() : nil
            },
            .knob("ebc:<x>", summary: "ebc with its own threshold x (more than 0, at most 1)", most: 1) { EBCPolicy(threshold: $0, label: $1) },
        ], sweeping: ["ebc:0.6", "ebc:0.45", "ebc:0.3", "ebc:0.2", "ebc:0.13", "ebc:0.08", "ebc:0.05", "ebc:0.03", "ebc:0.015"],
           isBaseline: true, examples: ["ebc", "ebc:0.05"]),
        PolicyFamily(name: "android-prefetch", entries: [
            Entry(name: "android-prefetch", summary: "Android's prefetch rule: an app's job runs once its next launch, "
                  + "estimated from the past week's, is within 1 hour (less 30 minutes)") {
                $0 == "android-prefetch" ? AndroidPrefetchPolicy() : nil
            },
            Entry(name: "android-prefetch:<threshold>", summary: "android-prefetch with its own threshold (1m to 24h)") { text in
                guard text.hasPrefix("android-prefetch:"), let ms = DurationText.parse(String(text.dropFirst(17))),
                      ms >= Millis.minute, ms <= Millis.day else { return nil }
                return AndroidPrefetchPolicy(threshold: ms, name: text)
            },
        ], sweeping: ["android-prefetch:15m", "android-prefetch:30m", "android-prefetch:1h", "android-prefetch:2h",
                      "android-prefetch:4h", "android-prefetch:7h"], examples: ["android-prefetch", "android-prefetch:7h"]),
    ]

    /// `adaptive-v1`, the hand-built policy `adaptive` was before the value rule; its frontier's
    /// prices start where a fetch can still clear the bar: a fetch rescues at most one open, so
    /// no price above one per joule of the cheapest fetch (a shared wake on Wi-Fi) ever fetches,
    /// and half that is where the first fetches come. From there each point halves the price,
    /// down to where spending stops growing; a point aiming at the whole budget closes the curve.
    static let adaptiveV1 = PolicyFamily(name: "adaptive-v1", entries: [
        Entry(name: "adaptive-v1", summary: "the hand-built policy adaptive was before the value rule: habits, a minimum price, a dual price") {
            $0 == "adaptive-v1" ? AdaptivePolicy() : nil
        },
        .knob("adaptive-v1:<x>", summary: "adaptive-v1 with its own minimum of expected rescues per joule (more than 0, at most 10)",
              most: InputBounds.maxRescuesPerJoule) { AdaptivePolicy(minRescuesPerJoule: $0, label: $1) },
        .knob("adaptive-v1@<share>",
              summary: "adaptive-v1 aiming at a share (more than 0, at most 1) of the daily budget, its price steered to it", most: 1) {
            AdaptivePolicy(budgetShare: $0, label: $1)
        },
    ], sweep: { scenario in
        let p = scenario.defaultApp.profile
        let cheapest = Double(scenario.energy.fetchMicroJ(ms: p.durationMedian, bytes: p.bytes, network: .wifi, sharedWake: true)) / 1e6
        // Bounded as a price from a name is (a scenario may make a fetch nearly free).
        let top = min(InputBounds.maxRescuesPerJoule, 0.5 / max(1e-6, cheapest))
        return (0..<10).map { "adaptive-v1:\(PolicySpec.significant(top / Double(1 << $0)))" } + ["adaptive-v1@1"]
    }, examples: ["adaptive-v1", "adaptive-v1:0.04"], scored: AdaptivePolicy.scored)

    /// The families no frontier sweeps: the platforms' models, the learned policy, pushes, the
    /// oracles and a policy of your own.
    static let others: [PolicyFamily] = [
        .single("none", summary: "never fetches in the background") { NonePolicy() },
        .single("ios", summary: "a model of iOS Background App Refresh") { IOSPolicy() },
        .single("android", summary: "a model of Android's background limits (standby buckets, Doze, 15-minute periodic work)") {
            AndroidPolicy()
        },
        PolicyFamily(name: "learned", entries: [
            Entry(name: "learned", summary: "adaptive-v1 weighing by the learned model's chance (online logistic regression)") {
                $0 == "learned" ? AdaptivePolicy(learns: true, label: "learned") : nil
            },
            .knob("learned:<x>", summary: "learned with its own minimum of expected rescues per joule (more than 0, at most 10)",
                  most: InputBounds.maxRescuesPerJoule) { AdaptivePolicy(minRescuesPerJoule: $0, learns: true, label: $1) },
        ], examples: ["learned", "learned:0.005"], scored: OpenLearner.scored),
        .single("push-adaptive", summary: "plans silent pushes at content updates, fetches nothing itself") {
            PushAdaptivePolicy(alsoFetch: false)
        },
        .single("adaptive+push", summary: "push-adaptive that also fetches as adaptive-v1 does") { PushAdaptivePolicy(alsoFetch: true) },
        .single("oracle", summary: "knows the future opens and each fetch's draw: the upper bound") { OraclePolicy() },
        .single("oracle:opens", summary: "knows the future opens, not the draws: the bound for prediction alone") {
            OraclePolicy(knowsDraws: false)
        },
        // Made by FetchExec's `parse(_:launch:)` only: a process is started by the caller that may start one.
        PolicyFamily(name: "exec", entries: [
            Entry(name: "exec:<command>", summary: "your own policy: a process speaking JSON Lines (docs/policies.md)") { _ in nil },
        ], examples: []),
    ]

    /// `x` to two significant digits, as a policy name writes it.
    static func significant(_ x: Double) -> String {
        var scale = 1.0
        while x * scale < 10 && scale < 1e9 { scale *= 10 }
        let text = ResultText.fixed((x * scale).rounded() / scale, Int(log10(scale).rounded()))
        guard text.contains(".") else { return text }
        let trimmed = String(text.reversed().drop { $0 == "0" }.reversed())
        return trimmed.hasSuffix(".") ? String(trimmed.dropLast()) : trimmed
    }

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
            // The name up to its knob's separator: `oracle:hindsight@` of `oracle:hindsight@<share>`.
            guard let open = entry.name.firstIndex(of: "<"), open > entry.name.startIndex, entry.name.hasSuffix(">"),
                  ":@".contains(entry.name[entry.name.index(before: open)]), !entry.name.hasPrefix("exec:") else { continue }
            let family = entry.name[..<open]
            if text.hasPrefix(family) {
                let value = InputBounds.printable(String(text.dropFirst(family.count)))
                return "policy '\(shown)': '\(value)' is not a value of \(entry.name) (\(entry.summary))"
            }
        }
        return "unknown policy '\(shown)' (known: \(known.joined(separator: ", ")))"
    }

    /// The registered names, in order.
    public static var known: [String] { registry.map(\.name) }

    /// One line per policy, for `--help`.
    public static var helpText: String { registry.map { "\($0.name): \($0.summary)" }.joined(separator: "; ") }

    /// The policy a built-in name makes; never an `exec:` policy, which only FetchExec's
    /// `parse(_:launch:)` makes, starting its process (the service has none, so a request can
    /// never start one).
    public static func parse(_ text: String) -> (any FetchPolicy)? {
        PolicyRegistry.builtIn.make(text)
    }
}
