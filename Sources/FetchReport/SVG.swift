import FetchCore
/// A few SVG building blocks for the report's charts, written by hand so the report needs
/// nothing from the network: every chart is inline SVG text.
struct SVG {
    private(set) var body = ""
    let width: Double
    let height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                          "#7f7f7f", "#bcbd22", "#17becf"]

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    static func n(_ x: Double) -> String { ResultText.fixed(x, 1) }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ stroke: String, width w: Double = 1) {
        body += "<line x1=\"\(Self.n(x1))\" y1=\"\(Self.n(y1))\" x2=\"\(Self.n(x2))\" y2=\"\(Self.n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(w))\"/>\n"
    }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ fill: String, title: String? = nil) {
        let t = title.map { "<title>\(Self.escape($0))</title>" } ?? ""
        body += "<rect x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" width=\"\(Self.n(max(w, 0.5)))\" height=\"\(Self.n(h))\" fill=\"\(fill)\">\(t)</rect>\n"
    }

    mutating func circle(_ x: Double, _ y: Double, _ r: Double, fill: String, stroke: String = "none", title: String? = nil) {
        let t = title.map { "<title>\(Self.escape($0))</title>" } ?? ""
        body += "<circle cx=\"\(Self.n(x))\" cy=\"\(Self.n(y))\" r=\"\(Self.n(r))\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"1.5\">\(t)</circle>\n"
    }

    mutating func text(_ x: Double, _ y: Double, _ s: String, anchor: String = "start", size: Double = 11, fill: String = "#333",
                       vertical: Bool = false) {
        let turn = vertical ? " transform=\"rotate(-90 \(Self.n(x)) \(Self.n(y)))\"" : ""
        body += "<text x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" font-size=\"\(Self.n(size))\" text-anchor=\"\(anchor)\" fill=\"\(fill)\"\(turn)>\(Self.escape(s))</text>\n"
    }

    mutating func polyline(_ points: [(Double, Double)], _ stroke: String) {
        let p = points.map { "\(Self.n($0.0)),\(Self.n($0.1))" }.joined(separator: " ")
        body += "<polyline points=\"\(p)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"2\"/>\n"
    }

    var svg: String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.n(width))\" height=\"\(Self.n(height))\" viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" font-family=\"sans-serif\">\n\(body)</svg>\n"
    }

    /// Round tick values covering 0...max.
    static func ticks(upTo max: Double, count: Int = 5) -> [Double] {
        guard max > 0 else { return [0] }
        let raw = max / Double(count)
        var step = 1.0
        while step * 10 <= raw { step *= 10 }
        while step > raw * 10 { step /= 10 }
        for m in [1.0, 2.0, 5.0, 10.0] where step * m >= raw { step *= m; break }
        let top = (max / step).rounded(.up) * step
        return stride(from: 0, through: top + step * 0.001, by: step).map { $0 }
    }
}
