import FetchAPI
import FetchCore
import FetchStorage
import Foundation
import Hummingbird

/// Decoding of path and query into the service's typed inputs: the service sees no strings
/// from the URL it would have to parse.
extension AppRequestContext {
    /// A name in the path, percent-decoded to its exact bytes and checked as every name is.
    func parameter(_ name: String) throws(RequestError) -> String {
        guard let raw = parameters.get(name) else { throw RequestError("missing path parameter '\(name)'", field: name) }
        return try RequestFields.pathName(raw, field: name)
    }

    /// The user in the path, of the request's tenant.
    func user() throws(RequestError) -> UserRef {
        try UserRef(tenant: tenant, name: try parameter("user"))
    }

    /// The app in the path, checked.
    func app() throws(RequestError) -> String {
        try parameter("app")
    }
}

extension Request {
    /// The query's `at`: a moment as a log timestamp, nil when absent.
    func moment() throws(RequestError) -> Int64? {
        guard let text = uri.queryParameters["at"] else { return nil }
        return try RequestFields.instant(String(text), field: "at")
    }

    /// The query's `horizon`, a day when absent.
    func horizon(max: Int64) throws(RequestError) -> Int64 {
        try RequestFields.horizon(uri.queryParameters["horizon"].map(String.init), max: max)
    }

    /// The query's wake `kind`.
    func wakeKind() throws(RequestError) -> WakeKind {
        try RequestFields.wakeKind(uri.queryParameters["kind"].map(String.init), field: "kind")
    }
}
