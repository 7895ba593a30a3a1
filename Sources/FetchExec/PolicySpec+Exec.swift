import FetchCore

extension PolicySpec {
    /// The policy a name makes, `exec:<command>` too: `launch` starts its process (a caller
    /// that may start one passes it; the service is not one).
    public static func parse(_ text: String, launch: (String) throws -> any PolicyPeer) rethrows -> (any FetchPolicy)? {
        if let command = ExecPolicy.command(in: text) {
            return ExecPolicy(command: command, peer: try launch(command))
        }
        return parse(text)
    }
}
