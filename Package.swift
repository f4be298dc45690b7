// swift-tools-version:6.0
import PackageDescription

// fuzz/run.sh builds with TRADEPORT_FUZZ=1: then the project's own modules (and only they) are
// compiled with libFuzzer's coverage and AddressSanitizer, and the executables linked with both.
// Leaving the dependencies (NIO, BoringSSL, Hummingbird…) uninstrumented keeps libFuzzer's
// counters to this project's code: about 892k counters fell to a few tens of thousands.
let fuzzing = Context.environment["TRADEPORT_FUZZ"] == "1"
let fuzzSwift: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : []
// The harnesses themselves: checked for memory errors, but not followed for coverage (their own
// checksums and comparisons would only cost time and guide the fuzzer toward nothing).
let fuzzHarness: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=address"])] : []
let fuzzC: [CSetting] = fuzzing ? [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])] : []
let fuzzLink: [LinkerSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])] : []

let package = Package(
    name: "tradeport",
    platforms: [.macOS(.v13)],
    products: [
        // The library: the canonical model, the format registry and adapters, the sinks.
        // No command-line parsing and no networking in it.
        .library(name: "Tradeport", targets: ["TradeportPrimitives", "TradeportFields", "TradeportCore", "TradeportCSV", "TradeportXLSX", "TradeportFormats"]),
        .library(name: "TradeportTestKit", targets: ["TradeportTestKit"]),
        // The balances server's API as values, and a client for it (networking: not in `Tradeport`).
        .library(name: "TradeportPush", targets: ["TradeportBalances", "TradeportPush"]),
        .executable(name: "tradeport", targets: ["TradeportCLI"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0")
    ],
    targets: [
        // What Core and the XLSX reader (which do not see each other) share: a bounded hand-over
        // between two threads and the civil-calendar day arithmetic. No dependencies.
        .target(name: "TradeportPrimitives", swiftSettings: fuzzSwift),
        // The canonical fields of each operation kind, declared once (names, value types, presence,
        // identity), and the model's vocabularies. No dependencies: the spec language, checked at
        // build time, reads it as the core does.
        .target(name: "TradeportFields", swiftSettings: fuzzSwift),
        .target(
            name: "TradeportCore",
            dependencies: ["TradeportPrimitives", "TradeportFields", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: fuzzSwift
        ),
        .target(name: "TradeportCSV", dependencies: ["TradeportPrimitives"], swiftSettings: fuzzSwift),
        // libxml2 and zlib from the system (Debian: libxml2-dev, zlib1g-dev), seen only by the C
        // target below: its header is the XLSX reader's whole view of them.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev", "zlib1g-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "CXLSXSupport", dependencies: ["CLibXML2"], cSettings: fuzzC),
        // A streaming XLSX reader: ZIP entries inflated in chunks, sheet XML through libxml2's SAX2
        // push parser, rows handed over one at a time.
        .target(
            name: "TradeportXLSX",
            dependencies: ["CXLSXSupport", "TradeportPrimitives", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: fuzzSwift
        ),
        .target(
            name: "TradeportFormats", dependencies: ["TradeportCore", "TradeportCSV", "TradeportXLSX", "TradeportSpec", "TradeportBuiltInSpecs"],
            swiftSettings: fuzzSwift),
        // Declarative format specs (YAML): the language, loaded with every error's file, line and key.
        .target(name: "TradeportSpec", dependencies: ["TradeportFields", .product(name: "Yams", package: "Yams")], swiftSettings: fuzzSwift),
        // Checks specs and embeds them (run by the build-tool plugin below).
        .executableTarget(name: "TradeportSpecTool", dependencies: ["TradeportSpec"], swiftSettings: fuzzSwift, linkerSettings: fuzzLink),
        .plugin(name: "EmbedFormatSpecs", capability: .buildTool(), dependencies: ["TradeportSpecTool"]),
        // swift package --allow-writing-to-package-directory new-format NAME: a spec, a sample and a test.
        .plugin(
            name: "NewFormat",
            capability: .command(
                intent: .custom(verb: "new-format", description: "Scaffold a format spec in formats/, a sample and a test for it"),
                permissions: [.writeToPackageDirectory(reason: "writes formats/NAME.yaml, formats/samples/NAME-example.csv and a test")]
            ),
            dependencies: ["TradeportSpecTool"]
        ),
        // The specs of formats/, checked and compiled in at build time.
        .target(name: "TradeportBuiltInSpecs", plugins: ["EmbedFormatSpecs"]),
        // The balances API's values: what goes over the wire, read and written with exact numbers.
        .target(name: "TradeportBalances", dependencies: ["TradeportCore"], swiftSettings: fuzzSwift),
        // The client `tradeport push` uses.
        .target(
            name: "TradeportPush",
            dependencies: [
                "TradeportBalances", "TradeportCore", "TradeportFormats",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: fuzzSwift
        ),
        // SQLite from the system (libsqlite3-dev), for the server's storage.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The server `tradeport serve` runs.
        .target(
            name: "TradeportServe",
            dependencies: [
                "TradeportPrimitives", "TradeportBalances", "TradeportCore", "TradeportFormats", "TradeportPush", "CSQLite",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio")
            ],
            swiftSettings: fuzzSwift
        ),
        .executableTarget(
            name: "TradeportCLI",
            dependencies: [
                "TradeportPrimitives", "TradeportCore", "TradeportFormats", "TradeportXLSX", "TradeportSpec", "TradeportBalances", "TradeportPush",
                "TradeportServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // The libFuzzer harnesses (fuzz/run.sh builds them with -DFUZZING and the fuzzer sanitizer;
        // built normally, the executable replays inputs through a harness).
        .executableTarget(
            name: "TradeportFuzz",
            dependencies: [
                "TradeportCore", "TradeportCSV", "TradeportXLSX", "TradeportSpec", "TradeportFormats", "TradeportBuiltInSpecs", "TradeportBalances",
                "TradeportServe", "TradeportTestKit", .product(name: "ZIPFoundation", package: "ZIPFoundation")
            ],
            swiftSettings: fuzzHarness,
            linkerSettings: fuzzLink
        ),
        // Helpers for testing a format adapter in a few lines (what a new adapter's tests use).
        .target(
            name: "TradeportTestKit",
            dependencies: ["TradeportCore", "TradeportFormats", "TradeportXLSX", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .testTarget(name: "TradeportCoreTests", dependencies: ["TradeportCore", "TradeportTestKit"]),
        .testTarget(name: "TradeportCSVTests", dependencies: ["TradeportCSV", "TradeportTestKit"]),
        .testTarget(name: "TradeportSpecTests", dependencies: ["TradeportSpec"]),
        .testTarget(
            name: "TradeportXLSXTests",
            dependencies: ["TradeportXLSX", "TradeportPrimitives", "TradeportTestKit", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .testTarget(
            name: "TradeportFormatsTests", dependencies: ["TradeportFormats", "TradeportCore", "TradeportTestKit", "TradeportSpec", "TradeportBalances"]),
        .testTarget(name: "TradeportBalancesTests", dependencies: ["TradeportBalances", "TradeportCore"]),
        // The complete minimal Swift reader and writer of the manual, compiled and run where they stand.
        .testTarget(
            name: "TradeportExamplesTests",
            dependencies: ["TradeportCore", "TradeportCSV", "TradeportFormats"],
            path: "docs/examples/swift",
            exclude: ["example-trades.csv"]
        ),
        .testTarget(
            name: "TradeportEndToEndTests",
            dependencies: [
                "TradeportCLI", "TradeportCore", "TradeportFormats", "TradeportBalances", "TradeportPush", "TradeportServe", "TradeportTestKit",
                "TradeportPrimitives",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation")
            ],
            exclude: ["Fixtures"]
        )
    ],
    swiftLanguageModes: [.v6]
)
