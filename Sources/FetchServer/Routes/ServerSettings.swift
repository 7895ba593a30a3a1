/// Where the server listens, who may call it, and how large requests may be.
public struct ServerSettings: Sendable {
    public var host: String
    public var port: Int
    /// nil: no authentication, one tenant (for local use).
    public var tokens: TokenTable?
    public var limits: ServiceLimits

    public init(host: String = "127.0.0.1", port: Int = 8080, tokens: TokenTable? = nil, limits: ServiceLimits = ServiceLimits()) {
        self.host = host
        self.port = port
        self.tokens = tokens
        self.limits = limits
    }
}
