/// A parsed JSON value, for input whose errors must name the field (scenarios, JSON Lines).
public enum JSONValue: Decodable, Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// The deepest nesting of arrays and objects a value read from outside may have: decoding
    /// recurses once per level, and a line of a million `[` would overflow the stack. The
    /// formats read this way nest two or three levels.
    public static let maxNesting = 64

    /// Whether the JSON text `bytes` nests arrays and objects at most ``maxNesting`` deep (outside
    /// strings): checked in one pass before decoding, which would recurse per level.
    public static func nestsWithinBounds<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var depth = 0, inString = false, escaped = false
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "[") || b == UInt8(ascii: "{") {
                depth += 1
                if depth > maxNesting { return false }
            } else if b == UInt8(ascii: "]") || b == UInt8(ascii: "}") {
                depth -= 1
            }
        }
        return true
    }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
