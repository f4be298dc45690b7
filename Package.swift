// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tradeport",
    platforms: [.macOS(.v13)],
    products: [
        // The library: the canonical model, the format registry and adapters, the sinks.
        // No command-line parsing and no networking in it.
        .library(name: "Tradeport", targets: ["TradeportCore", "TradeportCSV", "TradeportXLSX", "TradeportFormats"]),
        .library(name: "TradeportTestKit", targets: ["TradeportTestKit"]),
        .executable(name: "tradeport", targets: ["TradeportCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .target(
            name: "TradeportCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "TradeportCSV"),
        // libxml2 and zlib from the system (Debian: libxml2-dev, zlib1g-dev), seen only by the C
        // target below: its header is the XLSX reader's whole view of them.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev", "zlib1g-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "CXLSXSupport", dependencies: ["CLibXML2"]),
        // A streaming XLSX reader: ZIP entries inflated in chunks, sheet XML through libxml2's SAX2
        // push parser, rows handed over one at a time.
        .target(
            name: "TradeportXLSX",
            dependencies: ["CXLSXSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .target(name: "TradeportFormats", dependencies: ["TradeportCore", "TradeportCSV", "TradeportXLSX"]),
        .executableTarget(
            name: "TradeportCLI",
            dependencies: [
                "TradeportCore", "TradeportFormats",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/tradeport"
        ),
        // Helpers for testing a format adapter in a few lines (what a new adapter's tests use).
        .target(
            name: "TradeportTestKit",
            dependencies: ["TradeportCore", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .testTarget(name: "TradeportCoreTests", dependencies: ["TradeportCore", "TradeportTestKit"]),
        .testTarget(name: "TradeportCSVTests", dependencies: ["TradeportCSV", "TradeportTestKit"]),
        .testTarget(
            name: "TradeportXLSXTests",
            dependencies: ["TradeportXLSX", "TradeportTestKit", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .testTarget(name: "TradeportFormatsTests", dependencies: ["TradeportFormats", "TradeportCore", "TradeportTestKit"]),
        .testTarget(
            name: "TradeportEndToEndTests",
            dependencies: ["TradeportCLI", "TradeportCore", "TradeportTestKit"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
