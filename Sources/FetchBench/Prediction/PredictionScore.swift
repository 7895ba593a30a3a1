#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FetchCore

/// How well one model's chances foretold what happened: log-loss, Brier score, average
/// precision and a calibration table, accumulated example by example in bounded memory.
///
/// Average precision is computed over the chances binned on the logit scale (1,200 bins
/// over -12…12), so that a score needs no list of its examples: examples within one bin count
/// as tied, which moves the figure by less than the binning's width.
public struct PredictionScore: Sendable, Encodable {
    static let rankBins = 1200
    static let logitRange = 12.0
    public static let calibrationBins = 10

    public private(set) var examples = 0
    public private(set) var positives = 0
    var logLossSum = 0.0
    var brierSum = 0.0
    var ranked = [Int32](repeating: 0, count: 2 * rankBins)
    /// Per tenth of the chance: examples, their summed chance, and how many came true.
    public private(set) var calibration = [Calibration](repeating: Calibration(), count: calibrationBins)

    public struct Calibration: Sendable, Encodable {
        public var examples = 0
        public var chanceSum = 0.0
        public var positives = 0
    }

    public init() {}

    /// Counts one example: the model's chance `p`, and whether it came true.
    @inline(__always)
    public mutating func add(_ p: Double, _ label: Bool) {
        let q = min(1 - 1e-6, max(1e-6, p))
        examples += 1
        logLossSum -= label ? log(q) : log(1 - q)
        brierSum += (p - (label ? 1 : 0)) * (p - (label ? 1 : 0))
        let logit = log(q / (1 - q))
        let bin = Int(((logit + Self.logitRange) / (2 * Self.logitRange) * Double(Self.rankBins)).rounded(.down))
        let b = min(Self.rankBins - 1, max(0, bin))
        ranked[2 * b + (label ? 1 : 0)] += 1
        let c = min(Self.calibrationBins - 1, Int(p * Double(Self.calibrationBins)))
        calibration[c].examples += 1
        calibration[c].chanceSum += p
        if label {
            positives += 1
            calibration[c].positives += 1
        }
    }

    public mutating func merge(_ other: PredictionScore) {
        examples += other.examples
        positives += other.positives
        logLossSum += other.logLossSum
        brierSum += other.brierSum
        for i in ranked.indices { ranked[i] += other.ranked[i] }
        for i in calibration.indices {
            calibration[i].examples += other.calibration[i].examples
            calibration[i].chanceSum += other.calibration[i].chanceSum
            calibration[i].positives += other.calibration[i].positives
        }
    }

    public var logLoss: Double { examples == 0 ? 0 : logLossSum / Double(examples) }
    public var brier: Double { examples == 0 ? 0 : brierSum / Double(examples) }
    public var baseRate: Double { examples == 0 ? 0 : Double(positives) / Double(examples) }

    /// Average precision: the precision at each threshold, weighted by the recall it adds.
    public var averagePrecision: Double {
        guard positives > 0 else { return 0 }
        var seen = 0, hits = 0, ap = 0.0
        for b in stride(from: Self.rankBins - 1, through: 0, by: -1) {
            let pos = Int(ranked[2 * b + 1]), all = pos + Int(ranked[2 * b])
            guard all > 0 else { continue }
            seen += all
            hits += pos
            ap += Double(pos) / Double(positives) * Double(hits) / Double(seen)
        }
        return ap
    }

    enum CodingKeys: String, CodingKey { case examples, positives, logLoss, brier, averagePrecision, calibration }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(examples, forKey: .examples)
        try c.encode(positives, forKey: .positives)
        try c.encode(round(logLoss, 4), forKey: .logLoss)
        try c.encode(round(brier, 5), forKey: .brier)
        try c.encode(round(averagePrecision, 4), forKey: .averagePrecision)
        try c.encode(calibration, forKey: .calibration)
    }
}
