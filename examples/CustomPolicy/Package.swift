// swift-tools-version:6.1
import PackageDescription

// A policy of your own in Swift, replayed through FetchCore's public API. From the repository
// root: swift run --package-path examples/CustomPolicy CustomPolicy data/sample.csv
let package = Package(
    name: "CustomPolicy",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "FetchScheduler", path: "../..")],
    targets: [
        .executableTarget(name: "CustomPolicy", dependencies: [.product(name: "FetchCore", package: "FetchScheduler")]),
    ],
    swiftLanguageModes: [.v6]
)
