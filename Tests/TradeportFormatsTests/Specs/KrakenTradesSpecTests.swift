import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The kraken-trades format (formats/kraken-trades.yaml) over its own sample
/// (formats/samples/kraken-trades-example.csv): a header row, then six trades (lines 2-7).
@Suite struct KrakenTradesSpecTests {
    static let sample = BuiltInSample.path("kraken-trades-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("kraken-trades", sample) }

    static func fees(_ t: Trade) -> [String] { t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } }

    // Counts read from the raw sample: 6 data lines (2-7), each a trade; nothing skipped or rejected.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "kraken-trades")
        #expect(s.rows == 6)
        #expect(s.operations == 6)
        #expect(s.skipped == 0)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.merged == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.isEmpty)
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        #expect(doc.allTrades.count == 6)
        #expect(doc.allTransactions.count == 0)
        #expect(doc.portfolios.flatMap(\.movements).count == 0)
        #expect(doc.allTrades.map(\.source.row).sorted() == [2, 3, 4, 5, 6, 7])
        // Sides from the type column (lines 2, 3, 4, 7 buy; 5, 6 sell).
        #expect(doc.allTrades.filter { $0.side == .sell }.map(\.source.row).sorted() == [5, 6])
    }

    // Values read from the sample's raw line 2 (XXBTZEUR, a legacy pair name, with a fraction of a second).
    @Test func firstTradeLegacyPairName() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 2 })
        #expect(t.id == "kraken-trades:TQ7RZK-PLM2A-4XWB9C")
        #expect(t.externalId == "TQ7RZK-PLM2A-4XWB9C")
        #expect(t.orderId == "ON3KDF-7QW2E-XA5B6C")
        #expect(t.time.description == "2024-02-01T08:12:05.3311Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "BTC")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.01")
        #expect(t.price.description == "39500")
        #expect(t.amount?.description == "395")
        #expect(Self.fees(t) == ["0.632 EUR exchange"])
        #expect(t.venue == "Kraken")
    }

    // Values read from the sample's raw line 5: a sell of ETH against BTC (XETHXXBT), the fee in the quote.
    @Test func sellOfACryptoPair() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 5 })
        #expect(t.externalId == "TK5LPO-IU3YT-6REW1Q")
        #expect(t.orderId == "OZ4XCV-8BN2M-AS5D7F")
        #expect(t.time.description == "2024-02-07T09:30:45.9Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "ETH")
        #expect(t.quote.text == "BTC")
        #expect(t.quantity.description == "0.05")
        #expect(t.price.description == "0.054")
        #expect(t.amount?.description == "0.0027")
        #expect(Self.fees(t) == ["0.00000702 BTC exchange"])
    }

    // Values read from the sample's raw lines 3, 4 and 7: a zero fraction dropped, a 0.0001 s
    // fraction kept, a BASE/QUOTE pair with a separator.
    @Test func timesAndPairsOfOtherRows() throws {
        let doc = try Self.convert()
        let eth = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(eth.time.description == "2024-02-03T17:40:11Z")
        #expect(eth.base.text == "ETH" && eth.quote.text == "USD")
        #expect(Self.fees(eth) == ["0.598 USD exchange"])
        let dot = try #require(doc.allTrades.first { $0.source.row == 4 })
        #expect(dot.time.description == "2024-02-05T12:00:00.0001Z")
        #expect(dot.base.text == "DOT" && dot.quote.text == "EUR")
        #expect(dot.quantity.description == "10" && dot.price.description == "6.8" && dot.amount?.description == "68")
        let sol = try #require(doc.allTrades.first { $0.source.row == 7 })
        #expect(sol.time.description == "2024-02-11T14:22:09.12Z")
        #expect(sol.base.text == "SOL" && sol.quote.text == "USD")
        #expect(sol.quantity.description == "2" && sol.price.description == "105.5" && sol.amount?.description == "211")
        #expect(Self.fees(sol) == ["0.5486 USD exchange"])
    }
}
