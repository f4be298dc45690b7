import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory new-format NAME`: scaffolds a format spec
/// (`formats/NAME.yaml`), a small sample (`formats/samples/NAME-example.csv`) and a test that
/// converts the sample, then checks the spec. Edit the three to fit the exchange's real export.
/// With `--from FILE`, the spec is drafted from the export itself (`tradeport formats new`), the
/// export is the sample, and what the draft could not decide is listed to answer.
@main
struct NewFormat: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let from = extractor.extractOption(named: "from").last
        let names = extractor.remainingArguments
        guard names.count == 1, let name = names.first else {
            Diagnostics.error("usage: swift package --allow-writing-to-package-directory new-format NAME (lower-case letters, digits and '-')")
            return
        }
        guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }), !name.hasPrefix("-") else {
            Diagnostics.error("'\(name)' is not a format id: lower-case letters, digits and '-', like kraken-trades")
            return
        }
        let root = context.package.directoryURL
        let camel = name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if let from {
            try await draft(from: from, name: name, camel: camel, root: root)
            return
        }
        let files: [(URL, String)] = [
            (root.appending(path: "formats/\(name).yaml"), Self.spec(name)),
            (root.appending(path: "formats/samples/\(name)-example.csv"), Self.sample),
            (root.appending(path: "Tests/TradeportFormatsTests/Specs/\(camel)SpecTests.swift"), Self.test(name, camel))
        ]
        for (url, _) in files where FileManager.default.fileExists(atPath: url.path) {
            Diagnostics.error("\(url.path) exists already; new-format writes only new files")
            return
        }
        for (url, text) in files {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            print("wrote \(url.path)")
        }
        // Check the new spec with the same tool the build uses.
        let tool = try context.tool(named: "TradeportSpecTool")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["check", files[0].0.path]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("the new spec does not check; see the messages above")
            return
        }
        print(
            "next: edit formats/\(name).yaml to the export's real columns, replace the sample with a few real rows, and run swift test --filter \(camel)SpecTests"
        )
    }

    /// `--from FILE`: the spec drafted from the export by `tradeport formats new`, the export as
    /// the sample, and a test that converts it; the draft's questions are listed, and the build
    /// refuses the spec (as `formats check` does) until each is answered.
    func draft(from: String, name: String, camel: String, root: URL) async throws {
        let source = URL(fileURLWithPath: from, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        guard FileManager.default.fileExists(atPath: source.path) else {
            Diagnostics.error("\(from): no such file")
            return
        }
        let ext = source.pathExtension.lowercased() == "xlsx" ? "xlsx" : "csv"
        let files = [
            root.appending(path: "formats/\(name).yaml"), root.appending(path: "formats/samples/\(name)-example.\(ext)"),
            root.appending(path: "Tests/TradeportFormatsTests/Specs/\(camel)SpecTests.swift")
        ]
        for url in files where FileManager.default.fileExists(atPath: url.path) {
            Diagnostics.error("\(url.path) exists already; new-format writes only new files")
            return
        }
        // The tradeport of this package, built as `swift build` builds it.
        let built = try packageManager.build(.product("tradeport"), parameters: .init(configuration: .debug, logging: .concise))
        guard built.succeeded, let tool = built.builtArtifacts.first(where: { $0.kind == .executable }) else {
            Diagnostics.error("tradeport could not be built:\n\(built.logText)")
            return
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["formats", "new", source.path, "--id", name, "-o", files[0].path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("tradeport formats new could not draft a spec from \(from); see the message above")
            return
        }
        try FileManager.default.createDirectory(at: files[1].deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: files[1])
        try FileManager.default.createDirectory(at: files[2].deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.draftTest(name, camel, ext).write(to: files[2], atomically: true, encoding: .utf8)
        for url in files { print("wrote \(url.path)") }
        print(
            """
            next: read formats/\(name).yaml against the export: check each '# guess' and answer each TODO (listed above; \
            the build refuses the spec until they are answered). Replace the sample with a few rows you can share \
            (it is your export), then run swift test --filter \(camel)SpecTests
            """)
    }

    static func draftTest(_ name: String, _ camel: String, _ ext: String) -> String {
        """
        import Foundation
        import Testing
        import TradeportCore
        import TradeportFormats
        import TradeportTestKit

        /// The \(name) format (formats/\(name).yaml, drafted from an export) reads its sample
        /// (formats/samples/\(name)-example.\(ext)). Add the values you checked against the export.
        @Suite struct \(camel)SpecTests {
            static let sample = BuiltInSample.path("\(name)-example.\(ext)")

            @Test func convertsItsSample() throws {
                let doc = try BuiltInSample.convert("\(name)", Self.sample)
                #expect(doc.rejected.isEmpty, "\\(doc.rejected.map(\\.errors))")
                #expect(!(doc.allTrades.isEmpty && doc.allTransactions.isEmpty))
            }
        }

        """
    }

    static func spec(_ name: String) -> String {
        """
        # \(name): describe the exchange and its export here (where to download it, what it holds).
        tradeport-format: 1
        id: \(name)
        description: \(name) trade history export (CSV with a header row)
        source: {type: csv, delimiter: ",", encoding: utf-8, header: 1}
        values: {decimal: ".", thousands: none, timezone: UTC}
        detect: {header: [Date, Pair, Side, Amount, Price]}
        columns:
          - {name: time, header: Date, type: datetime, format: "yyyy-MM-dd HH:mm:ss", example: "2021-03-01 12:00:00"}
          - {name: pair, header: Pair, type: instrument, separators: ["/", "-"]}
          - {name: side, header: Side, map: {BUY: buy, SELL: sell}, ignore-case: true}
          - {name: quantity, header: Amount, type: decimal, check: positive}
          - {name: price, header: Price, type: decimal}
          - {name: fee, header: Fee, type: decimal, required: false}
          - {name: feeCurrency, header: Fee Currency, type: asset, required: {unless-zero: fee}}
          - {name: id, header: Trade ID, type: id}
        rows: {kind: trade}
        trade:
          externalId: id
          time: time
          side: side
          base: {base-of: pair}
          quote: {quote-of: pair}
          quantity: quantity
          price: price
          fees: [{amount: fee, currency: feeCurrency, kind: exchange}]
          venue: {const: \(name)}

        """
    }

    static let sample = """
        Date,Pair,Side,Amount,Price,Fee,Fee Currency,Trade ID
        2021-03-01 12:00:00,BTC/USD,BUY,0.5,48000.10,1.2,USD,T-1001
        2021-03-02 09:30:15,ETH/USD,SELL,2,1500,0,,T-1002

        """

    static func test(_ name: String, _ camel: String) -> String {
        """
        import Foundation
        import Testing
        import TradeportCore
        import TradeportFormats
        import TradeportTestKit

        /// The \(name) format (formats/\(name).yaml) reads its sample (formats/samples/\(name)-example.csv).
        @Suite struct \(camel)SpecTests {
            static let sample = BuiltInSample.path("\(name)-example.csv")

            @Test func convertsItsSample() throws {
                let doc = try BuiltInSample.convert("\(name)", Self.sample)
                #expect(doc.rejected.isEmpty, "\\(doc.rejected.map(\\.errors))")
                #expect(doc.allTrades.count == 2)
                #expect(doc.allTrades.first?.base.text == "BTC")
            }
        }

        """
    }
}
