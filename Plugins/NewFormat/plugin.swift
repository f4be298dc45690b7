import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory new-format NAME`: scaffolds a format spec
/// (`formats/NAME.yaml`), a small sample (`formats/samples/NAME-example.csv`) and a test that
/// converts the sample, then checks the spec. Edit the three to fit the exchange's real export.
@main
struct NewFormat: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let extractor = ArgumentExtractor(arguments)
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
