// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tradeport",
    platforms: [.macOS(.v13)],
    products: [
        // The library: the canonical model, the format registry and adapters, the sinks.
        // No command-line parsing and no networking in it.
        .library(name: "Tradeport", targets: ["TradeportCore", "TradeportCSV", "TradeportFormats"]),
        .library(name: "TradeportTestKit", targets: ["TradeportTestKit"]),
        .executable(name: "tradeport", targets: ["TradeportCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        .target(
            name: "TradeportCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "TradeportCSV"),
        .target(name: "TradeportFormats", dependencies: ["TradeportCore", "TradeportCSV"]),
        .executableTarget(
            name: "TradeportCLI",
            dependencies: [
                "TradeportCore", "TradeportFormats",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/tradeport"
        ),
        // Helpers for testing a format adapter in a few lines (what a new adapter's tests use).
        .target(name: "TradeportTestKit", dependencies: ["TradeportCore"]),
        .testTarget(name: "TradeportCoreTests", dependencies: ["TradeportCore", "TradeportTestKit"]),
        .testTarget(name: "TradeportCSVTests", dependencies: ["TradeportCSV", "TradeportTestKit"]),
        .testTarget(name: "TradeportFormatsTests", dependencies: ["TradeportFormats", "TradeportCore", "TradeportTestKit"]),
        .testTarget(
            name: "TradeportEndToEndTests",
            dependencies: ["TradeportCLI", "TradeportCore", "TradeportTestKit"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
