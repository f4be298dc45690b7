import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportSpec
import TradeportTestKit

/// The guide's worked example (docs/adding-a-format.md): its spec converts its sample.
@Suite("The guide's example: Kraken trades")
struct GuideExampleTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/examples").path

    @Test func krakenTrades() throws {
        let spec = try SpecLoader.load(text: try String(contentsOfFile: Self.docs + "/kraken-trades.yaml", encoding: .utf8), file: "kraken-trades.yaml")
        let reader = SpecReader(spec)
        let sample = Self.docs + "/kraken-trades.csv"
        #expect(reader.detect(try SourceInput(path: sample).probe) == .match)
        let doc = try TestKit.convert(paths: [sample], with: reader)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        let trades = doc.allTrades
        #expect(trades.count == 5)
        let first = try #require(trades.first { $0.externalId == "TQ3ZKD-4XHMN-7AB2CD" })
        #expect(first.id == "kraken-trades:TQ3ZKD-4XHMN-7AB2CD")
        #expect(first.time.description == "2024-03-19T19:43:31.6798Z")
        #expect(first.side == .buy && first.base.text == "BTC" && first.quote.text == "EUR")
        #expect(first.quantity == ExactDecimal("0.00185") && first.price == ExactDecimal("54054") && first.amount == ExactDecimal("100"))
        #expect(first.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } == ["0.16 EUR exchange"])
        #expect(first.venue == "Kraken" && first.orderId == "OK7PLM-QW3RT-5XY8ZA")
    }
}

/// The specs the guide shows, taken from its text: each fenced `yaml` block is found by its id.
enum Guide {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/adding-a-format.md").path

    static func spec(_ id: String) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fatalError("cannot read \(path)") }
        let blocks = text.components(separatedBy: "```yaml\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        guard let block = blocks.first(where: { $0.contains("\nid: \(id)\n") }) else { fatalError("the guide has no spec \(id)") }
        return block
    }
}
