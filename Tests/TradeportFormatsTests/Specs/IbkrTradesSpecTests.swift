import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The ibkr-trades format (formats/ibkr-trades.yaml) over its own sample
/// (formats/samples/ibkr-trades-example.csv): a header row, then 6 trades (lines 2-7), trade dates
/// read as midnight in America/New_York.
@Suite struct IbkrTradesSpecTests {
    static let sample = BuiltInSample.path("ibkr-trades-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("ibkr-trades", sample) }

    static func fees(_ t: Trade) -> [String] { t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } }

    // Counts read from the raw sample: 6 lines, each a trade (sells on lines 2 and 6).
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "ibkr-trades")
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
        #expect(doc.allTrades.filter { $0.side == .sell }.map(\.source.row).sorted() == [2, 6])
    }

    // Values read from the sample's raw line 2: a currency conversion (no ISIN): SELL -5000 at
    // 1.1312 for -5656 USD, commission -1.8 CHF: the base is CHF. 2024-03-04 00:00 EST = 05:00Z.
    @Test func currencyConversionTakesTheCommissionCurrency() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 2 })
        #expect(t.externalId == nil)
        #expect(t.time.description == "2024-03-04T05:00:00Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "CHF")
        #expect(t.quote.text == "USD")
        #expect(t.quantity.description == "5000")
        #expect(t.price.description == "1.1312")
        #expect(t.amount?.description == "5656")
        #expect(Self.fees(t) == ["1.8 CHF broker"])
        #expect(t.isin == nil)
    }

    // Values read from the sample's raw line 3: a buy of 40 IE00B4L5Y983 at 96.5 USD, commission -1 USD.
    @Test func securityBuy() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(t.time.description == "2024-03-05T05:00:00Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "IE00B4L5Y983")
        #expect(t.quote.text == "USD")
        #expect(t.quantity.description == "40")
        #expect(t.price.description == "96.5")
        #expect(t.amount?.description == "3860")
        #expect(Self.fees(t) == ["1 USD broker"])
        #expect(t.isin == "IE00B4L5Y983")
    }

    // Values read from the sample's raw lines 5 and 6: after the switch to summer time (EDT,
    // UTC-4) a trade date is 04:00Z; a SELL of -20 (quantity made positive, money -2064).
    @Test func summerTimeAndASell() throws {
        let doc = try Self.convert()
        let buy = try #require(doc.allTrades.first { $0.source.row == 5 })
        #expect(buy.time.description == "2024-04-12T04:00:00Z")
        #expect(buy.quantity.description == "12")
        #expect(buy.price.description == "99.87")
        #expect(buy.amount?.description == "1198.44")
        #expect(Self.fees(buy) == ["0.59922 USD broker"])
        let sell = try #require(doc.allTrades.first { $0.source.row == 6 })
        #expect(sell.time.description == "2024-06-10T04:00:00Z")
        #expect(sell.side == .sell)
        #expect(sell.base.text == "IE00B4L5Y983")
        #expect(sell.quote.text == "USD")
        #expect(sell.quantity.description == "20")
        #expect(sell.price.description == "103.2")
        #expect(sell.amount?.description == "2064")
        #expect(Self.fees(sell) == ["1 USD broker"])
    }

    // Values read from the sample's raw lines 4 and 7: a CHF-quoted security; the conversion back
    // (BUY 2000 CHF at 1.1195 USD, commission 1.79 CHF).
    @Test func otherTrades() throws {
        let doc = try Self.convert()
        let chf = try #require(doc.allTrades.first { $0.source.row == 4 })
        #expect(chf.base.text == "CH0038863350" && chf.quote.text == "CHF")
        #expect(chf.quantity.description == "10" && chf.price.description == "92.3" && chf.amount?.description == "923")
        #expect(Self.fees(chf) == ["5 CHF broker"])
        let back = try #require(doc.allTrades.first { $0.source.row == 7 })
        #expect(back.time.description == "2024-06-11T04:00:00Z")
        #expect(back.side == .buy)
        #expect(back.base.text == "CHF" && back.quote.text == "USD")
        #expect(back.quantity.description == "2000" && back.price.description == "1.1195" && back.amount?.description == "2239")
        #expect(Self.fees(back) == ["1.79 CHF broker"])
    }
}
