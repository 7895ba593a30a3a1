import Foundation
import Hummingbird

/// The request context: Hummingbird's core storage plus the tenant the bearer token names.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// "" when the server runs without tokens (one tenant, users stored by their own names).
    public var tenant = ""

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    /// Sorted keys: the same answer is the same bytes.
    public var responseEncoder: JSONEncoder { Self.encoder }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }()
}
