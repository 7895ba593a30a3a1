// swift-tools-version:6.2
import PackageDescription

// A policy of your own in Swift, replayed through FetchCore's public API, in a package that
// depends on FetchScheduler by version, as any package outside this repository would.
//
// FETCHSCHEDULER_URL names the FetchScheduler git repository to depend on (a tag 0.1.0 or later);
// without it, the repository this example sits in. scripts/dependent-example.sh builds it from
// a clone tagged 0.1.0, as CI does:
//   bash scripts/dependent-example.sh
let repository = Context.environment["FETCHSCHEDULER_URL"] ?? "file://" + Context.packageDirectory + "/../.."

let package = Package(
    name: "CustomPolicy",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: repository, from: "0.1.0")],
    targets: [
        .executableTarget(name: "CustomPolicy", dependencies: [
            .product(name: "FetchCore", package: "FetchScheduler"),
            // The report table (ResultText.table).
            .product(name: "FetchResults", package: "FetchScheduler"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
