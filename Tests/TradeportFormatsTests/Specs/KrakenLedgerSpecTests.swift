import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The kraken-ledger format (formats/kraken-ledger.yaml) over its own sample
/// (formats/samples/kraken-ledger-example.csv): a header row, then 7 ledger lines (2-8); a trade
/// is two lines of one refid (`group:`), counted as one operation and one merged row.
@Suite struct KrakenLedgerSpecTests {
    static let sample = BuiltInSample.path("kraken-ledger-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("kraken-ledger", sample) }

    static func fees(_ t: Trade) -> [String] { t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } }

    // Counts read from the raw sample: 7 lines; lines 4+5 (refid TJ5MXQ-…, two 'trade' rows) and
    // 6+7 (refid TZP8NC-…, receive + spend) are two trades, each merging its second line;
    // lines 2 (withdrawal), 3 (staking), 8 (deposit) are transactions. 7 rows = 5 operations + 2 merged.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "kraken-ledger")
        #expect(s.rows == 7)
        #expect(s.operations == 5)
        #expect(s.merged == 2)
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
        // A grouped trade is located at the first line of its group.
        #expect(doc.allTrades.map(\.source.row).sorted() == [4, 6])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 3, 8])
    }

    // Values read from the sample's raw line 2: a withdrawal of ZEUR (EUR) -500 with a 0.09 fee.
    @Test func withdrawalWithAFee() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(t.id == "kraken-ledger:LW7QZD-NB3XK-T5PRA2")
        #expect(t.externalId == "LW7QZD-NB3XK-T5PRA2")
        #expect(t.time.description == "2024-03-18T16:22:09.441Z")
        #expect(t.type == .withdrawal)
        #expect(t.asset.text == "EUR")
        #expect(t.amount.description == "500")
        #expect(t.fee.map { "\($0.amount) \($0.currency)" } == "0.09 EUR")
    }

    // Values read from the sample's raw lines 3 and 8: staking of XXBT is interest in BTC (a zero
    // fee is no fee); a deposit of ZEUR.
    @Test func stakingAndDeposit() throws {
        let doc = try Self.convert()
        let staking = try #require(doc.allTransactions.first { $0.source.row == 3 })
        #expect(staking.externalId == "LC4HJT-YE9MF-Q2WN6S")
        #expect(staking.time.description == "2024-03-15T00:47:12Z")
        #expect(staking.type == .interest)
        #expect(staking.asset.text == "BTC")
        #expect(staking.amount.description == "0.00004")
        #expect(staking.fee == nil)
        let deposit = try #require(doc.allTransactions.first { $0.source.row == 8 })
        #expect(deposit.externalId == "LM6XNH-3DQRF-V9AP2K")
        #expect(deposit.time.description == "2024-03-04T09:12:33.512Z")
        #expect(deposit.type == .deposit)
        #expect(deposit.asset.text == "EUR")
        #expect(deposit.amount.description == "2000")
        #expect(deposit.fee == nil)
    }

    // Values read from the sample's raw lines 4 and 5 (refid TJ5MXQ-W2KRA-9BDV7P): ZEUR +310 (fee
    // 0.8) in, XXBT -0.005 out. EUR ranks before BTC in `quotes`, so EUR is the quote and the EUR
    // that came in makes it a sell of 0.005 BTC for 310 EUR, price 310 / 0.005 = 62000.
    @Test func tradeRowsMakeASell() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 4 })
        #expect(t.id == "kraken-ledger:TJ5MXQ-W2KRA-9BDV7P")
        #expect(t.externalId == "TJ5MXQ-W2KRA-9BDV7P")
        #expect(t.time.description == "2024-03-12T10:05:47.9034Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "BTC")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.005")
        #expect(t.price.description == "62000")
        #expect(t.amount?.description == "310")
        #expect(Self.fees(t) == ["0.8 EUR exchange"])
        #expect(t.venue == "Kraken")
    }

    // Values read from the sample's raw lines 6 and 7 (refid TZP8NC-K4VSD-6WEM3Q): receive XXBT
    // +0.02, spend ZEUR -1200 with a fee of 3 on the spend: a buy of 0.02 BTC at 1200 / 0.02 = 60000.
    @Test func spendAndReceiveMakeABuy() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 6 })
        #expect(t.externalId == "TZP8NC-K4VSD-6WEM3Q")
        #expect(t.time.description == "2024-03-05T14:40:18.2231Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "BTC")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.02")
        #expect(t.price.description == "60000")
        #expect(t.amount?.description == "1200")
        #expect(Self.fees(t) == ["3 EUR exchange"])
    }
}
