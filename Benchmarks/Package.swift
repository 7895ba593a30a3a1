// swift-tools-version:6.1
// Benchmarks live in their own package so that normal builds of FetchScheduler stay fast.
// Run from this folder: swift package benchmark
import PackageDescription

let package = Package(
    name: "FetchSchedulerBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "FetchScheduler", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FetchBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FetchBench", package: "FetchScheduler"),
                .product(name: "FetchCore", package: "FetchScheduler"),
                .product(name: "FetchStorage", package: "FetchScheduler"),
                .product(name: "FetchSQLite", package: "FetchScheduler"),
                .product(name: "FetchTesting", package: "FetchScheduler"),
            ],
            path: "Benchmarks/FetchBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Not a benchmark: a program for Benchmarks/plan-instructions.sh to count instructions in.
        .executableTarget(
            name: "PlanInstructions",
            dependencies: [
                .product(name: "FetchBench", package: "FetchScheduler"),
                .product(name: "FetchCore", package: "FetchScheduler"),
                .product(name: "FetchResults", package: "FetchScheduler"),
                .product(name: "FetchTesting", package: "FetchScheduler"),
            ],
            path: "PlanInstructions"
        ),
    ],
    swiftLanguageModes: [.v6]
)
