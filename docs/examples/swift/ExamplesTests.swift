import Foundation
import Testing
import TradeportCore
import TradeportFormats

/// The examples of docs/examples/swift compiled and run as a newcomer would use them: the reader
/// and the writer in a registry of their own beside the built-in ones, a file converted.
@Suite("The minimal Swift reader and writer of docs/examples")
struct ExamplesTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("example-trades.csv").path

    @Test func readsAndWrites() throws {
        let registry = FormatRegistry(
            readers: FormatRegistry.builtIn.readers + [ExampleTradesReader()],
            writers: FormatRegistry.builtIn.writers + [ExampleTextWriter()])
        let inputs = try Inputs.prepare([InputRequest(path: Self.sample)], registry: registry)
        #expect(inputs.first?.reader.id == "example-trades")

        let path = NSTemporaryDirectory() + "tradeport-example-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try OutputFile.atomic(path: path)
        let sink = try #require(registry.writer(id: "example-text")).makeSink(output: output, options: WriteOptions())
        let report = try Inputs.convert(inputs, options: ConversionOptions(), into: sink)
        try output.commit()

        #expect(report.rows == 4 && report.operations == 2 && report.skipped == 1 && report.rejected == 1)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text == """
                2024-01-02T10:00:00Z main trade buy 0.5 BTC at 42000 USD
                2024-01-03T11:30:00Z main trade sell 0.25 BTC at 43100.5 USD
                rejected row 4: 'hold': expected buy or sell
                4 rows, 2 operations

                """)
    }
}
