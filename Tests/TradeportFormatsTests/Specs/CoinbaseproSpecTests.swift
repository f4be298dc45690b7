import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The coinbasepro format (formats/coinbasepro.yaml) over its own sample
/// (formats/samples/coinbasepro-example.csv): a header row, then 9 lines (2-10); a trade is two
/// `match` lines and a `fee` line of one trade id (`group:`).
@Suite struct CoinbaseproSpecTests {
    static let sample = BuiltInSample.path("coinbasepro-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("coinbasepro", sample) }

    static func fees(_ t: Trade) -> [String] { t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } }

    // Counts read from the raw sample: 9 lines; lines 4-6 (trade id 48213007) and 7-9 (48213012)
    // are two trades, 2 merged lines each; lines 2, 3 (deposits) and 10 (withdrawal) transactions.
    // 9 rows = 5 operations + 4 merged.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "coinbasepro")
        #expect(s.rows == 9)
        #expect(s.operations == 5)
        #expect(s.merged == 4)
        #expect(s.skipped == 0)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.isEmpty)
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        #expect(doc.allTrades.count == 2)
        #expect(doc.allTransactions.count == 3)
        #expect(doc.portfolios.flatMap(\.movements).count == 0)
        #expect(doc.allTrades.map(\.source.row).sorted() == [4, 7])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 3, 10])
    }

    // Values read from the sample's raw lines 4-6: match BTC +0.05, match EUR -1600, fee EUR -8:
    // a buy of 0.05 BTC for 1600 EUR at 32000 with an 8 EUR fee.
    @Test func firstTrade() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 4 })
        #expect(t.id == "coinbasepro:48213007")
        #expect(t.externalId == "48213007")
        #expect(t.orderId == "c2a9e5f0-1d37-4b8c-a6e4-3f7b20d95c14")
        #expect(t.time.description == "2021-02-05T14:22:31.408Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "BTC")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.05")
        #expect(t.price.description == "32000")
        #expect(t.amount?.description == "1600")
        #expect(Self.fees(t) == ["8 EUR exchange"])
        #expect(t.venue == "Coinbase Pro")
    }

    // Values read from the sample's raw lines 7-9: match ETH +1.2, match BTC -0.0432, fee BTC
    // -0.000216. BTC ranks before ETH in `quotes`: a buy of 1.2 ETH for 0.0432 BTC at 0.036.
    @Test func cryptoPairTrade() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 7 })
        #expect(t.externalId == "48213012")
        #expect(t.orderId == "7b3e0d84-56c1-4f9a-8e27-b14d6a03fc68")
        #expect(t.time.description == "2021-02-05T14:22:31.981Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "ETH")
        #expect(t.quote.text == "BTC")
        #expect(t.quantity.description == "1.2")
        #expect(t.price.description == "0.036")
        #expect(t.amount?.description == "0.0432")
        #expect(Self.fees(t) == ["0.000216 BTC exchange"])
    }

    // Values read from the sample's raw lines 2 and 10: a deposit and a withdrawal, ids from 'Transfer id'.
    @Test func depositAndWithdrawal() throws {
        let doc = try Self.convert()
        let deposit = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(deposit.externalId == "5e0c7a31-4b2d-4f6e-9a18-0d3c52e7b901")
        #expect(deposit.time.description == "2021-02-03T08:15:42.117Z")
        #expect(deposit.type == .deposit)
        #expect(deposit.asset.text == "EUR")
        #expect(deposit.amount.description == "2000")
        let withdrawal = try #require(doc.allTransactions.first { $0.source.row == 10 })
        #expect(withdrawal.externalId == "d6f2b9a5-0e48-4c73-91bd-5a8e3c7f2046")
        #expect(withdrawal.time.description == "2021-02-10T19:47:03.052Z")
        #expect(withdrawal.type == .withdrawal)
        #expect(withdrawal.asset.text == "ETH")
        #expect(withdrawal.amount.description == "1.2")
    }
}
