import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The dsx-trades format (formats/dsx-trades.yaml) over its own sample
/// (formats/samples/dsx-trades-example.csv): headerless ';' lines 1-6, decimal commas, UTC.
@Suite struct DsxTradesSpecTests {
    static let sample = BuiltInSample.path("dsx-trades-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("dsx-trades", sample) }

    static func fees(_ t: Trade) -> [String] { t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } }

    // Counts read from the raw sample: 6 lines (no header), 14 fields each, every one a trade.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "dsx-trades")
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
        #expect(doc.allTrades.map(\.source.row).sorted() == [1, 2, 3, 4, 5, 6])
        #expect(doc.allTrades.filter { $0.side == .sell }.map(\.source.row) == [6])
    }

    // Values read from the sample's raw line 1 (a four-letter base, EURS, and a fee in it).
    @Test func firstLine() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 1 })
        #expect(t.id == "dsx-trades:41000012")
        #expect(t.externalId == "41000012")
        #expect(t.orderId == "900000112")
        #expect(t.time.description == "2021-03-02T14:05:09Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "EURS")
        #expect(t.quote.text == "USD")
        #expect(t.quantity.description == "250")
        #expect(t.price.description == "1.2034")
        #expect(t.amount?.description == "300.85")
        #expect(Self.fees(t) == ["0.625 EURS exchange"])
        #expect(t.account == "Main")
        #expect(t.venue == "DSX")
    }

    // Values read from the sample's raw line 6: a sell, decimal commas, the fee in the quote currency.
    @Test func sellWithDecimalCommas() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 6 })
        #expect(t.externalId == "41000007")
        #expect(t.orderId == "900000107")
        #expect(t.time.description == "2021-02-27T12:00:01Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "BTC")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.01")
        #expect(t.price.description == "38500.25")
        #expect(t.amount?.description == "385.0025")
        #expect(Self.fees(t) == ["0.96 EUR exchange"])
        #expect(t.account == "Main")
    }

    // Values read from the sample's raw lines 2 and 3: a one-digit hour (9:41:30), another account.
    @Test func oneDigitHourAndAccount() throws {
        let doc = try Self.convert()
        let btc = try #require(doc.allTrades.first { $0.source.row == 2 })
        #expect(btc.time.description == "2021-03-02T09:41:30Z")
        #expect(btc.base.text == "BTC" && btc.quote.text == "USDT")
        #expect(btc.quantity.description == "0.015" && btc.price.description == "48210.5" && btc.amount?.description == "723.1575")
        #expect(Self.fees(btc) == ["0.0000375 BTC exchange"])
        let eth = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(eth.account == "Savings")
        #expect(eth.base.text == "ETH" && eth.quote.text == "BTC")
        #expect(eth.price.description == "0.03125" && eth.amount?.description == "0.046875")
    }
}
