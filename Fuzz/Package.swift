// swift-tools-version:6.1
import PackageDescription

/// libFuzzer targets for every parser of outside input. Build and run with `Fuzz/run.sh`:
/// the whole graph is compiled with `--sanitize=fuzzer --sanitize=address`, so FetchCore is
/// instrumented.
let package = Package(
    name: "FetchFuzz",
    dependencies: [.package(name: "FetchScheduler", path: "..")],
    targets: [
        .executableTarget(
            name: "fetch-fuzz",
            dependencies: [
                .product(name: "FetchCore", package: "FetchScheduler"),
                .product(name: "FetchAPI", package: "FetchScheduler"),
                .product(name: "FetchImport", package: "FetchScheduler"),
                .product(name: "FetchResults", package: "FetchScheduler"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
