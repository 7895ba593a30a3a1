// swift-tools-version:6.1
import PackageDescription

// The OpenAPI generator, pinned, for scripts/openapi/generate.sh: it writes FetchClient's code
// from Sources/FetchServer/openapi.json (committed, so that builds do not compile the generator).
let package = Package(
    name: "OpenAPITools",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")],
    targets: []
)
