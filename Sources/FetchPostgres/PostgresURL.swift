import FetchCore
import FetchStorage
import Foundation
import NIOSSL
import PostgresNIO

/// A `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]` URL,
/// checked: the store is chosen by this scheme wherever a command takes `--db`.
public struct PostgresURL: Sendable {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var sslMode: String

    /// Whether `text` names a PostgreSQL store rather than a SQLite file.
    public static func matches(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    public init(_ text: String) throws {
        let shown = InputBounds.printable(Self.redact(text))
        guard text.utf8.count <= 2_048, Self.matches(text), let c = URLComponents(string: text),
              let host = c.host, !host.isEmpty else {
            throw InputError("'\(shown)' is not a URL postgres://user@host[:port]/database "
                             + "(a '#', '/', '?' or '@' in the password must be percent-encoded: %23, %2F, %3F, %40)")
        }
        guard let user = c.user, !user.isEmpty else { throw InputError("'\(shown)' names no user (postgres://user@host/database)") }
        let port = c.port ?? 5432
        guard (1...65_535).contains(port) else { throw InputError("'\(shown)': the port must be 1 to 65535") }
        let database = String(c.path.drop(while: { $0 == "/" }))
        var sslMode = "prefer"
        for item in c.queryItems ?? [] {
            guard item.name == "sslmode", let value = item.value, ["disable", "prefer", "require"].contains(value) else {
                throw InputError("'\(shown)': the only query parameter is sslmode=disable|prefer|require")
            }
            sslMode = value
        }
        (self.host, self.port, self.user, self.password) = (host, port, user, c.password)
        self.database = database.isEmpty ? user : database
        self.sslMode = sslMode
    }

    /// The URL with its password replaced, for messages and reports.
    public var redacted: String { "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)" }

    /// `text` with whatever stands between the user's colon and the last `@` replaced by `***`,
    /// and the value of every query parameter but `sslmode` too (`?password=…` is refused, and
    /// the message refusing it must not print it).
    ///
    /// By hand, not through `URLComponents`: a password holding `#`, `/` or `?` is exactly what
    /// does not parse, and the message saying so must not print it.
    static func redact(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text.range(of: "@", options: .backwards),
              at.lowerBound > scheme.upperBound,
              let colon = text[scheme.upperBound..<at.lowerBound].firstIndex(of: ":") else { return redactQuery(text) }
        return String(text[..<text.index(after: colon)]) + "***" + redactQuery(String(text[at.lowerBound...]))
    }

    /// `text` with the value of each query parameter other than `sslmode` replaced by `***`.
    private static func redactQuery(_ text: String) -> String {
        guard let question = text.firstIndex(of: "?") else { return text }
        let items = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { item in
            guard let equals = item.firstIndex(of: "="), item[..<equals] != "sslmode" else { return String(item) }
            return String(item[...equals]) + "***"
        }
        return String(text[...question]) + items.joined(separator: "&")
    }

    /// The same server and credentials for one connection of its own (``PostgresStore``'s probe).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "require": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        return PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    var configuration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "require": tls = .require(.makeClientConfiguration())
        default: tls = .prefer(.makeClientConfiguration())
        }
        return PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }
}
