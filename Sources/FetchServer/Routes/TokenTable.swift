import FetchStorage
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Bearer tokens, each scoped to one tenant: `{"tokens": [{"token": "…", "tenant": "acme"}]}`.
public struct TokenTable: Sendable {
    let tenants: [String: String]

    public init(_ pairs: [(token: String, tenant: String)]) {
        tenants = Dictionary(pairs.map { ($0.token, $0.tenant) }, uniquingKeysWith: { a, _ in a })
    }

    struct File: Decodable {
        struct Entry: Decodable {
            var token: String
            var tenant: String
        }

        var tokens: [Entry]
    }

    /// Reads a tokens file; tenants are 1–64 characters of letters, digits, '-', '_' and '.',
    /// and tokens at least 16 characters.
    public static func load(path: String) throws -> TokenTable {
        guard let data = FileManager.default.contents(atPath: path) else { throw TokenError("cannot read the tokens file '\(path)'") }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw TokenError("tokens file '\(path)': expected {\"tokens\": [{\"token\": \"…\", \"tenant\": \"…\"}]}")
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        var seen: [String: Int] = [:]
        for (i, e) in file.tokens.enumerated() {
            guard !e.tenant.isEmpty, e.tenant.count <= 64, e.tenant.allSatisfy({ allowed.contains($0) }) else {
                throw TokenError("tokens file '\(path)': field 'tokens[\(i)].tenant': 1 to 64 letters, digits, '-', '_' or '.'")
            }
            guard e.token.count >= 16 else {
                throw TokenError("tokens file '\(path)': field 'tokens[\(i)].token': at least 16 characters")
            }
            // A token two tenants share would let one act as the other. Compared as the table
            // looks tokens up (canonically equivalent strings are one key).
            if let first = seen.updateValue(i, forKey: e.token) {
                throw TokenError("tokens file '\(path)': field 'tokens[\(i)].token': the same token as tokens[\(first)]; each token is one tenant's")
            }
        }
        guard !file.tokens.isEmpty else { throw TokenError("tokens file '\(path)' holds no tokens") }
        return TokenTable(file.tokens.map { ($0.token, $0.tenant) })
    }

    public func tenant(for token: Substring) -> String? { tenants[String(token)] }
}

public struct TokenError: Error, CustomStringConvertible {
    public let description: String
    init(_ d: String) { description = d }
}
