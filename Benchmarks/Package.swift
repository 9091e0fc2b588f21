// swift-tools-version:6.1
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder: the checkout's folder name, whatever it is.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

/// `SWITCHBOARD_BENCH_BASELINE=1` builds the suite against an older checkout: the benchmarks of
/// entry points that checkout lacks are left out (`#if !BASELINE`).
let baselineSettings: [SwiftSetting] =
    ProcessInfo.processInfo.environment["SWITCHBOARD_BENCH_BASELINE"] == nil ? [] : [.define("BASELINE")]

/// The benchmark suite of Switchboard, kept apart from the main package so `swift test` and
/// CI never build it. Run it with `scripts/bench.sh` (release build, pinned to one core).
let package = Package(
    name: "SwitchboardBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // The baseline measured side by side: Vapor's trie router.
        .package(url: "https://github.com/vapor/routing-kit", exact: "4.9.3"),
    ],
    targets: [
        // Counts malloc calls made by the process (interposes malloc and friends).
        .target(name: "CMallocCounter"),
        .executableTarget(
            name: "SwitchboardBenchmarks",
            dependencies: [
                "CMallocCounter",
                .product(name: "SwitchboardCore", package: rootIdentity),
                .product(name: "RoutingKit", package: "routing-kit"),
            ],
            swiftSettings: baselineSettings
        ),
    ]
)
