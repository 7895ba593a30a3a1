/// The habits of one user's apps, by app id.
///
/// A dense table indexed by id rather than a dictionary: app ids are small and dense (interned
/// per run), and hashing an id showed up at every decision in profiles of the adaptive policy.
public struct AppHabits: Sendable {
    private var slots: [AppHabit?] = []
    /// How many apps have a habit.
    public private(set) var count = 0

    public init() {}

    package subscript(id: Int32) -> AppHabit? {
        get {
            let i = Int(id)
            return i >= 0 && i < slots.count ? slots[i] : nil
        }
        set {
            let i = Int(id)
            guard i >= 0 else {  // ids are interned from zero up: a negative one has no habit
                precondition(newValue == nil, "a habit for a negative app id")
                return
            }
            if i >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: i + 1 - slots.count))
            }
            if (slots[i] == nil) != (newValue == nil) { count += newValue == nil ? -1 : 1 }
            slots[i] = newValue
        }
    }

    /// Whether `id` has a habit, without copying it out as the subscript does.
    public func contains(_ id: Int32) -> Bool {
        let i = Int(id)
        guard i >= 0 && i < slots.count, case .some = slots[i] else { return false }
        return true
    }

    /// The weighted opens of `id` (0 when it has no habit), read in place: the subscript copies
    /// the habit out, and with it a reference to each of its arrays.
    package func allOpens(_ id: Int32) -> Float {
        let i = Int(id)
        return i >= 0 && i < slots.count ? slots[i]?.allOpens ?? 0 : 0
    }

    /// The gaps between the opens of `id` and its last open (nil when it has no habit).
    func rhythm(_ id: Int32) -> (gaps: SIMD16<Float>, lastOpen: Int64)? {
        let i = Int(id)
        guard i >= 0 && i < slots.count, case .some(let habit) = slots[i] else { return nil }
        return (habit.gaps, habit.lastOpen)
    }

    /// Changes the habit of `id` in place (made empty first when there is none), so its arrays
    /// are not copied on write.
    mutating func update(_ id: Int32, _ body: (inout AppHabit) -> Void) {
        let i = Int(id)
        if i >= slots.count { slots.append(contentsOf: repeatElement(nil, count: i + 1 - slots.count)) }
        if slots[i] == nil {
            slots[i] = AppHabit()
            count += 1
        }
        body(&slots[i]!)
    }

    /// The habits, in ascending order of app id.
    public var values: [AppHabit] { slots.compactMap { $0 } }

    /// The ids that have a habit, ascending.
    public var keys: [Int32] {
        slots.indices.compactMap { slots[$0] == nil ? nil : Int32($0) }
    }
}

extension AppHabits: Equatable {
    /// Equal when the same apps have the same habits (however large the tables grew).
    public static func == (a: AppHabits, b: AppHabits) -> Bool {
        a.count == b.count && a.keys == b.keys && a.keys.allSatisfy { a[$0] == b[$0] }
    }
}
