import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The schwab format (formats/schwab.yaml) over its own sample (formats/samples/schwab-example.csv):
/// a header row, then 12 lines (2-13): money as "-$4,708.65", US dates read as midnight in
/// America/New_York, an "as of" date, and the export's total line at the end.
@Suite struct SchwabSpecTests {
    static let sample = BuiltInSample.path("schwab-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("schwab", sample) }

    static func fees(_ t: Trade) -> [String] { t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } }

    // Counts read from the raw sample: 12 lines; line 13 ("Transactions Total") is skipped; trades
    // 3, 4, 7, 10; transactions 2, 5, 6, 8, 9, 11; a movement (Stock Split) 12.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "schwab")
        #expect(s.rows == 12)
        #expect(s.operations == 11)
        #expect(s.skipped == 1)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.merged == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.map(\.source.row) == [13])
        #expect(doc.skipped.first?.reason.contains("total") == true)
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        let movements = doc.portfolios.flatMap(\.movements)
        #expect(doc.allTrades.count == 4)
        #expect(doc.allTransactions.count == 6)
        #expect(movements.count == 1)
        #expect(doc.allTrades.map(\.source.row).sorted() == [3, 4, 7, 10])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 5, 6, 8, 9, 11])
        #expect(movements.map(\.source.row) == [12])
    }

    // Values read from the sample's raw line 2: MoneyLink Transfer "$10,000.00" in (a deposit);
    // 01/03/2024 00:00 EST = 05:00Z.
    @Test func moneyLinkTransferIn() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(t.externalId == nil)
        #expect(t.time.description == "2024-01-03T05:00:00Z")
        #expect(t.type == .deposit)
        #expect(t.asset.text == "USD")
        #expect(t.amount.description == "10000")
        #expect(t.security == nil)
        #expect(t.note == "Tfr WELLS FARGO BANK, XXXX1234")
    }

    // Values read from the sample's raw line 3: Buy 20 VTI at "$235.40", fee "$0.65", Amount
    // "-$4,708.65": the amount without the fee is |-4708.65 + 0.65| = 4708.
    @Test func buyWithAFee() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(t.time.description == "2024-01-05T05:00:00Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "VTI")
        #expect(t.quote.text == "USD")
        #expect(t.quantity.description == "20")
        #expect(t.price.description == "235.4")
        #expect(t.amount?.description == "4708")
        #expect(Self.fees(t) == ["0.65 USD broker"])
        #expect(t.name == "VANGUARD TOTAL STOCK MARKET ETF")
    }

    // Values read from the sample's raw line 10: Sell 10 VTI at "$270.15", fee "$0.65", Amount
    // "$2,700.85" (net of the fee): 2700.85 + 0.65 = 2701.5. July: EDT, 04:00Z.
    @Test func sellNetOfItsFee() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 10 })
        #expect(t.time.description == "2024-07-08T04:00:00Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "VTI")
        #expect(t.quote.text == "USD")
        #expect(t.quantity.description == "10")
        #expect(t.price.description == "270.15")
        #expect(t.amount?.description == "2701.5")
        #expect(Self.fees(t) == ["0.65 USD broker"])
    }

    // Values read from the sample's raw lines 4 and 7: a buy without fees (amount |-3806.00|) and
    // Reinvest Shares (a buy of 0.0672 VTI for 17.42).
    @Test func buysWithoutFees() throws {
        let doc = try Self.convert()
        let schd = try #require(doc.allTrades.first { $0.source.row == 4 })
        #expect(schd.side == .buy)
        #expect(schd.base.text == "SCHD")
        #expect(schd.quantity.description == "50")
        #expect(schd.price.description == "76.12")
        #expect(schd.amount?.description == "3806")
        #expect(schd.fees.isEmpty)
        let reinvest = try #require(doc.allTrades.first { $0.source.row == 7 })
        #expect(reinvest.time.description == "2024-03-28T04:00:00Z")
        #expect(reinvest.side == .buy)
        #expect(reinvest.base.text == "VTI")
        #expect(reinvest.quantity.description == "0.0672")
        #expect(reinvest.price.description == "259.22")
        #expect(reinvest.amount?.description == "17.42")
        #expect(reinvest.fees.isEmpty)
    }

    // Values read from the sample's raw lines 5, 8, 9, 11: a cash dividend (security and note), an
    // advisor fee "-$12.34", credit interest, a wire sent "-$2,000.00".
    @Test func cashRows() throws {
        let doc = try Self.convert()
        let dividend = try #require(doc.allTransactions.first { $0.source.row == 5 })
        #expect(dividend.time.description == "2024-03-25T04:00:00Z")
        #expect(dividend.type == .dividend)
        #expect(dividend.asset.text == "USD")
        #expect(dividend.amount.description == "30.55")
        #expect(dividend.security == "SCHD")
        #expect(dividend.note == "SCHWAB US DIVIDEND EQUITY ETF")
        let advisor = try #require(doc.allTransactions.first { $0.source.row == 8 })
        #expect(advisor.type == .fee)
        #expect(advisor.amount.description == "12.34")
        #expect(advisor.note == "TO ADVISOR")
        let interest = try #require(doc.allTransactions.first { $0.source.row == 9 })
        #expect(interest.time.description == "2024-04-29T04:00:00Z")
        #expect(interest.type == .interest)
        #expect(interest.amount.description == "2.07")
        let wire = try #require(doc.allTransactions.first { $0.source.row == 11 })
        #expect(wire.time.description == "2024-08-01T04:00:00Z")
        #expect(wire.type == .withdrawal)
        #expect(wire.amount.description == "2000")
        #expect(wire.note == "WIRED FUNDS DISBURSED")
    }

    // Values read from the sample's raw line 12: "10/11/2024 as of 10/10/2024" Stock Split of
    // +100 SCHD: dated by the "as of" date.
    @Test func stockSplitAsOfItsDate() throws {
        let doc = try Self.convert()
        let m = try #require(doc.portfolios.flatMap(\.movements).first { $0.source.row == 12 })
        #expect(m.time.description == "2024-10-10T04:00:00Z")
        #expect(m.direction == .in)
        #expect(m.asset.text == "SCHD")
        #expect(m.quantity.description == "100")
        #expect(m.reason == .split)
        #expect(m.name == "SCHWAB US DIVIDEND EQUITY ETF")
    }
}
