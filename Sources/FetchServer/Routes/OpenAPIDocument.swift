import Foundation

/// The OpenAPI 3 document of the API, `Sources/FetchServer/openapi.json`, served as it is.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
              let data = try? Data(contentsOf: url) else { return Array("{}".utf8) }
        return [UInt8](data)
    }()
}
