import FetchBench
import FetchCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `predict --report`: one self-contained HTML page with the prediction benchmark's table and a
/// reliability chart per model (the chance a model gave against how often it came true).
public enum PredictionReport {
    public static func render(_ bench: PredictionBench, users: NameTable, source: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>FetchScheduler prediction report</title>
        <style>
        body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1000px; }
        pre { font-size: 12px; } h2 { margin-top: 32px; } .note { color: #555; font-size: 13px; }
        </style></head><body>
        <h1>FetchScheduler: prediction benchmark</h1>
        <p class="note">\(SVG.escape(source)) · content window \(DurationText.format(bench.window)) · a moment every \
        \(DurationText.format(bench.tick)) and at each unlock, open and plug-in</p>
        <h2>Reliability</h2>
        <p class="note">Per tenth of the score a model gave, the share of those moments followed by a stale open of the app: \
        a calibrated model lies on the diagonal. Point size grows with the moments in the bin; hover for counts.</p>
        \(reliability(bench, Array(bench.overall.prefix(bench.primary.count)), xLabel: "the model's score"))
        <p class="note">The chance each model's rule decides on: its score calibrated for each user as the value rule calibrates \
        it (by kind of moment and range of score, from the answers known by then), against the same stale opens.</p>
        \(reliability(bench, bench.decided, xLabel: "the chance its rule decides on"))
        <h2>Scores</h2>
        <pre>\(SVG.escape(bench.text(markdown: false, users: users)))</pre>
        </body></html>

        """
    }

    /// Observed rate (y) against the mean of `scores`' chances (x), one line per primary model.
    static func reliability(_ bench: PredictionBench, _ scores: [PredictionScore], xLabel: String) -> String {
        var s = SVG(width: 640, height: 400)
        let (left, right, top, bottom) = (70.0, 500.0, 20.0, 350.0)
        let x = { (v: Double) in left + v * (right - left) }, y = { (v: Double) in bottom - v * (bottom - top) }
        let ticks = [0, 0.2, 0.4, 0.6, 0.8, 1.0]
        Charts.axes(&s, ticks, ticks, x, y, left, right, top, bottom, xLabel: xLabel, yLabel: "observed rate")
        s.line(x(0), y(0), x(1), y(1), "#bbb")
        for i in bench.primary.indices {
            let color = SVG.palette[i % SVG.palette.count]
            let bins = scores[i].calibration.filter { $0.examples > 0 }
            let points = bins.map { (x($0.chanceSum / Double($0.examples)), y(Double($0.positives) / Double($0.examples))) }
            if points.count > 1 { s.polyline(points, color) }
            for (b, p) in zip(bins, points) {
                let radius = min(8, 2 + log10(Double(b.examples)))
                s.circle(p.0, p.1, radius, fill: color, title: "\(bench.models[i]): \(b.examples) moments, mean "
                         + "\(ResultText.fixed(b.chanceSum / Double(b.examples), 3)), observed \(ResultText.fixed(Double(b.positives) / Double(b.examples), 3))")
            }
            s.rect(520, top + Double(i) * 18, 12, 12, color)
            s.text(538, top + Double(i) * 18 + 10, bench.models[i])
        }
        return s.svg
    }
}
