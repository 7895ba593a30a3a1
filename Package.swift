// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "FetchScheduler",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FetchCore", targets: ["FetchCore"]),
        .library(name: "FetchImport", targets: ["FetchImport"]),
        .library(name: "FetchBench", targets: ["FetchBench"]),
        .library(name: "FetchResults", targets: ["FetchResults"]),
        .library(name: "FetchStorage", targets: ["FetchStorage"]),
        .library(name: "FetchSQLite", targets: ["FetchSQLite"]),
        .library(name: "FetchPostgres", targets: ["FetchPostgres"]),
        .library(name: "FetchAPI", targets: ["FetchAPI"]),
        .library(name: "FetchServer", targets: ["FetchServer"]),
        .library(name: "FetchCLI", targets: ["FetchCLI"]),
        .library(name: "FetchClient", targets: ["FetchClient"]),
        .library(name: "FetchTesting", targets: ["FetchTesting"]),
        .library(name: "FetchPostgresTesting", targets: ["FetchPostgresTesting"]),
        .executable(name: "fetchsched", targets: ["fetchsched"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // SHA-256 of a shard's input (already in the graph through postgres-nio).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // The channel between an ingest's reading and its watched COPY (already in the graph through hummingbird).
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        // `swift package generate-documentation --target FetchCore` (the DocC catalog in FetchCore.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Pure core: domain, parsing of bytes, engine, policies, metrics. No I/O.
        .target(
            name: "FetchCore",
            dependencies: [
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // The store's one protocol (ServiceStore) and what every driver shares, with no database
        // library: stored-row bounds, histories, outcomes; and log files, where events come from.
        .target(
            name: "FetchStorage",
            dependencies: [
                "FetchCore",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // The SQLite driver (GRDB): one process's store.
        .target(
            name: "FetchSQLite",
            dependencies: [
                "FetchCore", "FetchStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The PostgreSQL driver: the same promises as the SQLite one, for several service instances.
        .target(
            name: "FetchPostgres",
            dependencies: [
                "FetchCore", "FetchStorage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // Importing what phones keep into the canonical log: Android's usage-statistics dumps, AWARE's
        // tables and iOS's knowledgeC.db (read from a private copy with GRDB); one set of foreground rules.
        .target(
            name: "FetchImport",
            dependencies: [
                "FetchCore", "FetchStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Tools that measure policies: frontiers at equal energy, the prediction benchmark, and
        // generated populations (`generate`).
        .target(name: "FetchBench", dependencies: ["FetchCore"]),
        // A replay's results in their forms: tables, CSV, JSON written a row at a time, and the
        // lossless report of one shard of a run (`--shard`), its checks and its layout.
        .target(name: "FetchResults", dependencies: ["FetchCore"]),
        // `exec:` policies: a policy in any language, a process spoken to in JSON Lines; the
        // process itself is the caller's (the command line's ProcessPeer).
        .target(name: "FetchExec", dependencies: ["FetchCore"]),
        // Outside JSON (the API's request bodies, scenario files) decoded and checked into domain values: no HTTP, no I/O.
        .target(name: "FetchAPI", dependencies: ["FetchCore"]),
        // The self-contained HTML report of a bench or a prediction run: charts as SVG, no I/O.
        .target(name: "FetchReport", dependencies: ["FetchBench", "FetchCore", "FetchResults"]),
        // The HTTP service: routes over the store and live planning sessions (Hummingbird 2).
        .target(
            name: "FetchServer",
            dependencies: [
                "FetchAPI", "FetchCore", "FetchStorage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("openapi.json")]
        ),
        // A typed Swift client of the service. `Generated/` is swift-openapi-generator's output for
        // Sources/FetchServer/openapi.json, committed (scripts/openapi/generate.sh writes it, and
        // CI checks it is current), so that building the client never compiles the generator.
        .target(
            name: "FetchClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The loop an iPhone app runs around the service (examples/DeviceAgent): BGTaskScheduler
        // behind #if canImport(BackgroundTasks), the rest tested on Linux against a live server.
        .target(name: "DeviceAgent", dependencies: ["FetchClient"], path: "examples/DeviceAgent"),
        // The few system calls Swift cannot make (a variadic `prctl`) or cannot make early enough
        // (standard descriptors filled before the runtime opens its first file), in C.
        .target(name: "CFetchShims"),
        // The command line, as a library so tests can drive it.
        .target(
            name: "FetchCLI",
            dependencies: [
                "CFetchShims", "FetchAPI", "FetchBench", "FetchCore", "FetchExec", "FetchImport", "FetchReport", "FetchResults",
                "FetchStorage", "FetchSQLite", "FetchPostgres", "FetchServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(name: "fetchsched", dependencies: ["FetchCLI"]),
        // Log builders, random logs and scripted policies for tests and benchmarks.
        .target(name: "FetchTesting", dependencies: ["FetchCore", "FetchExec"]),
        // A fresh database per test on the cluster scripts/pg-cluster.sh starts.
        .target(name: "FetchPostgresTesting", dependencies: [
            "FetchPostgres", .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        .testTarget(name: "FetchCoreTests", dependencies: ["FetchAPI", "FetchBench", "FetchCore", "FetchExec", "FetchResults", "FetchTesting"]),
        .testTarget(name: "FetchImportTests", dependencies: ["FetchCore", "FetchImport"]),
        .testTarget(name: "FetchStoreTests", dependencies: [
            "FetchBench", "FetchCore", "FetchResults", "FetchStorage", "FetchSQLite", "FetchPostgres", "FetchPostgresTesting", "FetchTesting",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        .testTarget(name: "FetchServerTests", dependencies: [
            "FetchAPI", "FetchServer", "FetchClient", "DeviceAgent",
            "FetchBench", "FetchCore", "FetchStorage", "FetchSQLite", "FetchPostgres", "FetchPostgresTesting", "FetchTesting",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        .testTarget(name: "FetchCLITests", dependencies: [
            "FetchAPI", "FetchCLI", "FetchBench", "FetchCore", "FetchExec", "FetchImport", "FetchResults",
            "FetchStorage", "FetchSQLite", "FetchPostgresTesting", "FetchTesting", "fetchsched",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
