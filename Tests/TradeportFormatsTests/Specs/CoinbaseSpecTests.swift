import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The coinbase format (formats/coinbase.yaml) over its own sample
/// (formats/samples/coinbase-example.csv): a header row, then 9 lines (2-10) with currency
/// symbols and thousands commas in the money columns, times with a literal ' UTC'.
@Suite struct CoinbaseSpecTests {
    static let sample = BuiltInSample.path("coinbase-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("coinbase", sample) }

    static func fees(_ t: Trade) -> [String] { t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } }

    // Counts read from the raw sample: 9 lines, one operation each; trades are lines 3 (Buy),
    // 4 (Advanced Trade Buy), 6 (Convert), 7 (Sell); the rest transactions.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "coinbase")
        #expect(s.rows == 9)
        #expect(s.operations == 9)
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
        #expect(doc.allTrades.count == 4)
        #expect(doc.allTransactions.count == 5)
        #expect(doc.portfolios.flatMap(\.movements).count == 0)
        #expect(doc.allTrades.map(\.source.row).sorted() == [3, 4, 6, 7])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 5, 8, 9, 10])
    }

    // Values read from the sample's raw line 2: a fiat deposit, its Notes the note.
    @Test func deposit() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(t.id == "coinbase:65a1f0c2d3e4b5a6c7d8e9f0")
        #expect(t.externalId == "65a1f0c2d3e4b5a6c7d8e9f0")
        #expect(t.time.description == "2024-01-12T09:14:33Z")
        #expect(t.type == .deposit)
        #expect(t.asset.text == "EUR")
        #expect(t.amount.description == "1000")
        #expect(t.note == "Deposited 1000 EUR from SEPA")
    }

    // Values read from the sample's raw line 3: price "€39,571.12" (symbol, thousands comma),
    // amount the Subtotal €364.55, fee "Fees and/or Spread" €5.45 in Price Currency.
    @Test func buyWithSymbolsAndAFee() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(t.externalId == "65a1f3aa9b8c7d6e5f4a3b2c")
        #expect(t.time.description == "2024-01-12T09:20:05Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "BTC")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.00921234")
        #expect(t.price.description == "39571.12")
        #expect(t.amount?.description == "364.55")
        #expect(Self.fees(t) == ["5.45 EUR exchange"])
        #expect(t.venue == "Coinbase")
    }

    // Values read from the sample's raw line 6: "Converted 0.002 BTC to 0.03251004 ETH": a sell of
    // 0.002 BTC for 0.03251004 ETH at 0.03251004 / 0.002 = 16.25502; its empty fee cell gives no fee.
    @Test func convertIsASellForTheAssetTheNotesName() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 6 })
        #expect(t.externalId == "65d4e6f7a8b9c0d1e2f3a4b5")
        #expect(t.time.description == "2024-03-05T12:30:00Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "BTC")
        #expect(t.quote.text == "ETH")
        #expect(t.quantity.description == "0.002")
        #expect(t.price.description == "16.25502")
        #expect(t.amount?.description == "0.03251004")
        #expect(t.fees.isEmpty)
    }

    // Values read from the sample's raw line 7: a Sell with a negative quantity (-0.04).
    @Test func sellOfANegativeQuantity() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 7 })
        #expect(t.externalId == "65e5f7a8b9c0d1e2f3a4b5c6")
        #expect(t.time.description == "2024-03-18T15:11:27Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "ETH")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.04")
        #expect(t.price.description == "3401.25")
        #expect(t.amount?.description == "136.05")
        #expect(Self.fees(t) == ["2.03 EUR exchange"])
    }

    // Values read from the sample's raw lines 4, 5 and 8: an Advanced Trade Buy; Staking Income
    // (interest, empty Notes: no note); a Send (withdrawal of |-0.02|).
    @Test func otherTypes() throws {
        let doc = try Self.convert()
        let advanced = try #require(doc.allTrades.first { $0.source.row == 4 })
        #expect(advanced.side == .buy)
        #expect(advanced.base.text == "ETH" && advanced.quote.text == "EUR")
        #expect(advanced.quantity.description == "0.05")
        #expect(advanced.price.description == "2145.6")
        #expect(advanced.amount?.description == "107.28")
        #expect(Self.fees(advanced) == ["0.43 EUR exchange"])
        let staking = try #require(doc.allTransactions.first { $0.source.row == 5 })
        #expect(staking.time.description == "2024-02-20T06:01:44Z")
        #expect(staking.type == .interest)
        #expect(staking.asset.text == "ETH")
        #expect(staking.amount.description == "0.000041922")
        #expect(staking.note == nil)
        let send = try #require(doc.allTransactions.first { $0.source.row == 8 })
        #expect(send.time.description == "2024-04-02T20:45:51Z")
        #expect(send.type == .withdrawal)
        #expect(send.asset.text == "ETH")
        #expect(send.amount.description == "0.02")
        #expect(send.note == "Sent 0.02 ETH to 0xAbC1230000000000000000000000000000000Def")
        let withdrawal = try #require(doc.allTransactions.first { $0.source.row == 10 })
        #expect(withdrawal.type == .withdrawal)
        #expect(withdrawal.asset.text == "EUR")
        #expect(withdrawal.amount.description == "250")
    }
}
