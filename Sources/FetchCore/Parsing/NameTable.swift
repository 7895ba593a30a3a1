/// Interns names (users, apps) to dense ids, in first-seen order.
///
/// Ids depend on input order, so nothing that is output or seeded may use them: output and
/// random streams go by name.
///
/// Its stored state is accessed without dynamic exclusivity checks: it is used for every row of
/// a log, and no method keeps an access open across a call that could start another.
public final class NameTable {
    @exclusivity(unchecked) public private(set) var names: [String] = []
    @exclusivity(unchecked) private var ids: [String: Int32] = [:]
    /// Byte spellings already met, in front of `ids`, so a log row's name is found without
    /// making a `String` (see ``existingID(bytes:)``).
    private let spellings = ByteIndex()

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
    public func id(bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        if let id = spellings.find(bytes) { return id }
        let id = id(String(decoding: bytes, as: UTF8.self))
        spellings.insert(bytes, id: id)
        return id
    }

    package func existingID(_ name: String) -> Int32? { ids[name] }

    /// The id of a name given as UTF-8 bytes, if it has one.
    ///
    /// A spelling not met before is looked up as text and then remembered, but only when it is
    /// the name's own bytes: Swift's strings compare by canonical equivalence, so `josé`
    /// decomposed would find `josé` composed, and must instead go to the caller's checks (which
    /// refuse it) as a name not met before.
    package func existingID(bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        if let id = spellings.find(bytes) { return id }
        guard let id = ids[String(decoding: bytes, as: UTF8.self)], names[Int(id)].utf8.elementsEqual(bytes) else { return nil }
        spellings.insert(bytes, id: id)
        return id
    }

    public subscript(id: Int32) -> String { names[Int(id)] }
}
