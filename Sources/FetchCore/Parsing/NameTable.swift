/// Interns names (users, apps) to dense ids, in first-seen order.
///
/// Ids depend on input order, so nothing that is output or seeded may use them: output and
/// random streams go by name.
public final class NameTable {
    public private(set) var names: [String] = []
    private var ids: [String: Int32] = [:]

    public init() {}

    public var count: Int { names.count }

    public func id(_ name: String) -> Int32 {
        if let id = ids[name] { return id }
        let id = Int32(names.count)
        names.append(name)
        ids[name] = id
        return id
    }

    /// The id of a name given as UTF-8 bytes.
    @inlinable
    public func id(bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        id(String(decoding: bytes, as: UTF8.self))
    }

    public func existingID(_ name: String) -> Int32? { ids[name] }

    public subscript(id: Int32) -> String { names[Int(id)] }
}
