// swift-tools-version:6.1
import PackageDescription

/// Switchboard: a deep-link routing service. The module graph is the architecture
/// (ARCHITECTURE.md has the picture and the path of a request through it):
///
///     switchboard (executable: serve, resolve, check, codegen, admin, export, …)
///       └─ SwitchboardServer   the application: settings, config loading, snapshot, reload,
///            │                 admin changes, endpoints, metrics, check
///            ├─ SwitchboardHTTP    the HTTP/1.1 server on libmicrohttpd; knows no endpoint   ── CMicroHTTPD
///            ├─ SwitchboardStore   the admin state model, its file and PostgreSQL stores      ── CLibPQ
///            ├─ (QR codes of GET /qr)                                                          ── CQRencode
///            │    └─ SwitchboardCore
///            └─ SwitchboardCore    pure resolution: URLs, patterns, trie, rewrite, resolver   ── CPCRE2
///
/// Each C library is imported by exactly one target. `SwitchboardCore` does no I/O and takes
/// no lock; it is the one library product (the benchmarks and any embedding app use it).
///
/// Platforms: `switchboard serve` is supported and tested on Linux (inotify, glibc). The
/// package also builds on macOS 15 with the C libraries from Homebrew (libmicrohttpd, pcre2,
/// libpq); there the config watcher polls. Only Linux is tested.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Switchboard",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwitchboardCore", targets: ["SwitchboardCore"]),
        .executable(name: "switchboard", targets: ["switchboard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // MARK: C libraries, each imported by one target only

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
        // libqrencode for the symbols of GET /qr, and zlib for their PNG.
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev", "zlib1g-dev"])]
        ),

        // MARK: Build tools

        // Writes the git revision of the build into SwitchboardServer (SwitchboardVersion.revision).
        .plugin(name: "BuildRevision", capability: .buildTool()),

        // MARK: Libraries

        .target(
            name: "SwitchboardCore",
            dependencies: ["CPCRE2"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SwitchboardHTTP",
            dependencies: [
                "CMicroHTTPD",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SwitchboardStore",
            dependencies: [
                "SwitchboardCore",
                "CLibPQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SwitchboardServer",
            dependencies: [
                "SwitchboardCore",
                "SwitchboardHTTP",
                "SwitchboardStore",
                "CQRencode",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
            ],
            // The OpenAPI document served at /openapi.yaml. The file lives here, inside Sources,
            // so that a build context holding only Sources has it; the root openapi.yaml links here.
            // The admin console (/console): one embedded file per asset, served from memory.
            resources: [
                .embedInCode("Resources/openapi.yaml"),
                .embedInCode("Resources/console/index.html"),
                .embedInCode("Resources/console/console.css"),
                .embedInCode("Resources/console/console.js"),
                .embedInCode("Resources/console/dom.js"),
                .embedInCode("Resources/console/api.js"),
                .embedInCode("Resources/console/routes.js"),
                .embedInCode("Resources/console/rules.js"),
                .embedInCode("Resources/console/preview.js"),
                .embedInCode("Resources/console/try.js"),
                .embedInCode("Resources/console/history.js"),
                .embedInCode("Resources/console/status.js"),
                .embedInCode("Resources/console/analytics.js"),
            ],
            swiftSettings: strictSettings,
            plugins: ["BuildRevision"]
        ),
        .executableTarget(
            name: "switchboard",
            dependencies: [
                "SwitchboardCore",
                "SwitchboardServer",
                "SwitchboardStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The request path between the HTTP layer and Core, in process (BENCHMARKS.md).
        .executableTarget(
            name: "SwitchboardAPIBenchmark",
            dependencies: [
                "SwitchboardHTTP",
                "SwitchboardServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Tests, one target per library, plus the helpers they share

        .target(
            name: "SwitchboardTestSupport",
            dependencies: [
                "SwitchboardCore",
                "SwitchboardStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/SwitchboardTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SwitchboardCoreTests",
            dependencies: [
                "SwitchboardCore",
                "SwitchboardTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SwitchboardHTTPTests",
            dependencies: [
                "SwitchboardHTTP",
                "SwitchboardTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SwitchboardStoreTests",
            dependencies: [
                "SwitchboardStore",
                "SwitchboardCore",
                "SwitchboardTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SwitchboardServerTests",
            dependencies: [
                "SwitchboardServer",
                "SwitchboardHTTP",
                "SwitchboardStore",
                "SwitchboardCore",
                "SwitchboardTestSupport",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Parses openapi.yaml in the OpenAPI coverage test.
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
