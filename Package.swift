// swift-tools-version:6.1
import PackageDescription

/// Switchboard: a deep-link routing service.
///
/// Module graph (DESIGN.md §1):
/// - `SwitchboardCore`: pure Swift (URL model, patterns, trie router, rewrite engine, resolver,
///   config model). No sockets, files, threads or locks. Depends only on `CPCRE2`.
/// - `CPCRE2`, `CMicroHTTPD`, `CLibPQ`: system libraries, the only C boundaries (libpq for the
///   optional PostgreSQL store shared by replicas).
/// - `SwitchboardServer`: the HTTP service, config loading, hot reload, persistence, metrics.
/// - `switchboard`: the thin command-line executable.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Switchboard",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwitchboardCore", targets: ["SwitchboardCore"]),
        .library(name: "SwitchboardServer", targets: ["SwitchboardServer"]),
        .executable(name: "switchboard", targets: ["switchboard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "SwitchboardCore",
            dependencies: ["CPCRE2"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SwitchboardServer",
            dependencies: [
                "SwitchboardCore",
                "CMicroHTTPD",
                "CLibPQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            // The OpenAPI document served at /openapi.yaml; a symlink to the one at the root.
            resources: [.embedInCode("Resources/openapi.yaml")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "switchboard",
            dependencies: [
                "SwitchboardCore",
                "SwitchboardServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SwitchboardCoreTests",
            dependencies: [
                "SwitchboardCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SwitchboardServerTests",
            dependencies: [
                "SwitchboardServer",
                "SwitchboardCore",
                .product(name: "Logging", package: "swift-log"),
                // Parses openapi.yaml in the OpenAPI coverage test.
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
