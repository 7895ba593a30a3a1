import FetchCore

/// Synthetic users with known habits, for tests, benchmarks and the bundled sample.
///
/// Each user is a `Persona` drawn from the seed: a morning checker, an hourly checker, a
/// commuter, an evening reader, a weekend shift, some with a habit that moves half-way, with
/// bursts of re-opens, screen_on shortly before each session, charging at night, Wi-Fi at home
/// and work and cellular between. Days are produced one at a time, every user's events of that
/// day in time order, so a log of any length is written in bounded memory.
public struct SyntheticLog {
    public let users: Int
    public let days: Int
    public let seed: UInt64
    /// Whether app servers send pushes (see `Persona` pushes): alert and silent ones.
    public let pushes: Bool
    /// Whether the log has `location` events: one a minute after each move onto cellular
    /// (leaving home or work), derived from the network events so nothing else changes.
    public let location: Bool
    /// Whether apps post notifications: some answered by an open within minutes, some never
    /// (see `Persona` notifications).
    public let notifications: Bool
    /// The first local day: Monday 2025-01-06.
    public let firstDay = LocalTime.days(year: 2025, month: 1, day: 6)
    private var personas: [Persona]

    public init(users: Int, days: Int, seed: UInt64, pushes: Bool = false, location: Bool = false, notifications: Bool = false) {
        self.users = users
        self.days = days
        self.seed = seed
        self.pushes = pushes
        self.location = location
        self.notifications = notifications
        personas = (0..<users).map { Persona(index: $0, seed: seed, days: days) }
    }

    public static func userName(_ index: Int) -> String { "user-\(LocalTime.pad(index + 1, 4))" }

    /// Every user's events of day `day` (0-based), in time order.
    public mutating func events(day: Int) -> [GeneratedEvent] {
        var all: [GeneratedEvent] = []
        for i in personas.indices {
            var own = personas[i].events(day: day, localDay: firstDay + Int64(day))
            if location {
                let moves = own.filter { $0.kind == .network && $0.value == "cellular" }
                for m in moves {
                    own.append(GeneratedEvent(time: m.time + 60_000, offsetMinutes: m.offsetMinutes, user: m.user,
                                              order: Int32(own.count), app: "", kind: .location, value: ""))
                }
            }
            let noticed = notifications ? personas[i].notifications(day: day, seed: seed, events: own) : []
            all.append(contentsOf: own)
            all.append(contentsOf: noticed)
            if pushes {
                all.append(contentsOf: personas[i].pushes(day: day, localDay: firstDay + Int64(day), seed: seed,
                                                          firstOrder: Int32(own.count + noticed.count)))
            }
        }
        all.sort { ($0.time, $0.user, $0.order) < ($1.time, $1.user, $1.order) }
        return all
    }

    /// The canonical CSV of a whole log.
    public static func csv(users: Int, days: Int, seed: UInt64, pushes: Bool = false, location: Bool = false,
                           notifications: Bool = false) -> String {
        var log = SyntheticLog(users: users, days: days, seed: seed, pushes: pushes, location: location, notifications: notifications)
        var out = CSVLineParser.header + "\n"
        for d in 0..<days { for e in log.events(day: d) { out += e.csvLine + "\n" } }
        return out
    }
}

/// One row of a synthetic log.
public struct GeneratedEvent: Sendable {
    public var time: Int64
    public var offsetMinutes: Int16
    public var user: Int32
    /// Keeps a user's simultaneous events in the order they were made.
    public var order: Int32
    public var app: String
    public var kind: EventKind
    public var value: String

    /// `timestamp,user,app,event,value`.
    public var csvLine: String {
        "\(LocalTime.isoText(time, offsetMinutes: Int(offsetMinutes))),\(SyntheticLog.userName(Int(user))),\(app),\(kind.logName),\(value)"
    }
}
