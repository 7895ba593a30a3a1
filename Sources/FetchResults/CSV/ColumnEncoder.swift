import FetchCore

/// Flattens one `Encodable` value into named columns, in the order the value encodes them.
///
/// Nested objects become `outer_inner` columns, so the CSV output reuses the JSON encoding's
/// metric names and cannot drift from them. Arrays are not columns: encoding one is an error.
enum ColumnEncoder {
    /// Column names and their cells, in encoding order; `nil` is an empty cell.
    static func columns<T: Encodable>(of value: T) throws -> [(name: String, cell: String?)] {
        let sink = Sink()
        try value.encode(to: FlatEncoder(sink: sink, path: []))
        return sink.columns
    }

    final class Sink {
        var columns: [(name: String, cell: String?)] = []
        func put(_ path: [String], _ cell: String?) { columns.append((path.joined(separator: "_"), cell)) }
    }

    struct FlatEncoder: Encoder {
        let sink: Sink
        let path: [String]
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(sink: sink, path: path))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(path: path) }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(sink: sink, path: path) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        let path: [String]
        var codingPath: [any CodingKey] { [] }

        func single(_ key: Key) -> Single { Single(sink: sink, path: path + [key.stringValue]) }

        mutating func encodeNil(forKey key: Key) throws { sink.put(path + [key.stringValue], nil) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { sink.put(path + [key.stringValue], value ? "true" : "false") }
        mutating func encode(_ value: String, forKey key: Key) throws { sink.put(path + [key.stringValue], value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { var s = single(key); try s.encode(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { var s = single(key); try s.encode(Double(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode(_ value: Int8, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode(_ value: Int16, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode(_ value: Int32, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode(_ value: Int64, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode(_ value: UInt, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { sink.put(path + [key.stringValue], "\(value)") }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try value.encode(to: FlatEncoder(sink: sink, path: path + [key.stringValue]))
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(sink: sink, path: path + [key.stringValue]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Unkeyed(path: path + [key.stringValue]) }
        mutating func superEncoder() -> any Encoder { FlatEncoder(sink: sink, path: path) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { FlatEncoder(sink: sink, path: path + [key.stringValue]) }
    }

    /// A value at one column: the scalar forms write a cell, anything else recurses.
    struct Single: SingleValueEncodingContainer {
        let sink: Sink
        let path: [String]
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { sink.put(path, nil) }
        mutating func encode(_ value: Bool) throws { sink.put(path, value ? "true" : "false") }
        mutating func encode(_ value: String) throws { sink.put(path, value) }
        /// Whole values print without a fraction, as JSON prints them; others in Swift's shortest form.
        mutating func encode(_ value: Double) throws {
            guard value.isFinite else { throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(path) is not finite")) }
            sink.put(path, value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)")
        }
        mutating func encode(_ value: Float) throws { try encode(Double(value)) }
        mutating func encode(_ value: Int) throws { sink.put(path, "\(value)") }
        mutating func encode(_ value: Int8) throws { sink.put(path, "\(value)") }
        mutating func encode(_ value: Int16) throws { sink.put(path, "\(value)") }
        mutating func encode(_ value: Int32) throws { sink.put(path, "\(value)") }
        mutating func encode(_ value: Int64) throws { sink.put(path, "\(value)") }
        mutating func encode(_ value: UInt) throws { sink.put(path, "\(value)") }
        mutating func encode(_ value: UInt8) throws { sink.put(path, "\(value)") }
        mutating func encode(_ value: UInt16) throws { sink.put(path, "\(value)") }
        mutating func encode(_ value: UInt32) throws { sink.put(path, "\(value)") }
        mutating func encode(_ value: UInt64) throws { sink.put(path, "\(value)") }
        mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: FlatEncoder(sink: sink, path: path)) }
    }

    /// Arrays have no place in a flat row.
    struct Unkeyed: UnkeyedEncodingContainer {
        let path: [String]
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        func refuse() throws -> Never {
            throw EncodingError.invalidValue(path, .init(codingPath: [], debugDescription: "\(path.joined(separator: "_")) is a list, not a column"))
        }
        mutating func encodeNil() throws { try refuse() }
        mutating func encode<T: Encodable>(_ value: T) throws { try refuse() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(sink: Sink(), path: path))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { FlatEncoder(sink: Sink(), path: path) }
    }
}
