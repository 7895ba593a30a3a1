/// Resolves each app id of a run to its scenario settings and the stable hash of its name.
///
/// Its stored state is accessed without dynamic exclusivity checks: it is used for every row of
/// a log, and no method keeps an access open across a call that could start another.
public final class AppCatalog {
    public let scenario: Scenario
    public let names: NameTable
    @exclusivity(unchecked) private var settings: [AppSettings] = []
    @exclusivity(unchecked) private var hashes: [UInt64] = []

    public init(scenario: Scenario, names: NameTable) {
        self.scenario = scenario
        self.names = names
    }

    private func fill(_ id: Int32) {
        while settings.count <= Int(id) {
            let name = names[Int32(settings.count)]
            settings.append(scenario.settings(forApp: name))
            hashes.append(StableHash.of(name))
        }
    }

    public func settings(_ id: Int32) -> AppSettings {
        fill(id)
        return settings[Int(id)]
    }

    public func hash(_ id: Int32) -> UInt64 {
        fill(id)
        return hashes[Int(id)]
    }
}
