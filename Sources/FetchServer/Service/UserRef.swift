import FetchStorage
import FetchAPI

/// The user a request is about: a tenant's user, whose name was checked when decoded.
///
/// Users are stored as `tenant/user` when tokens are in use, so tenants never meet.
struct UserRef: Sendable {
    let tenant: String
    /// The name the client uses.
    let name: String

    init(tenant: String, name: String) throws(RequestError) {
        try RequestFields.name(name, field: "user")
        self.tenant = tenant
        self.name = name
    }

    /// The name in the store.
    var stored: String { Self.stored(tenant: tenant, name: name) }

    static func stored(tenant: String, name: String) -> String { tenant.isEmpty ? name : tenant + "/" + name }
}
