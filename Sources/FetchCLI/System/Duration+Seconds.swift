extension Duration {
    /// The duration in seconds, with its fraction: what the command line prints of a run's time.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
