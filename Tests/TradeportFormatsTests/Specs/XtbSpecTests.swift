import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The xtb format (formats/xtb.yaml) over its own sample (formats/samples/xtb-example.csv): a ';'
/// CSV with CRLF line ends, a header row, then 11 lines (2-12) in Europe/Warsaw time, EUR assumed.
@Suite struct XtbSpecTests {
    static let sample = BuiltInSample.path("xtb-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("xtb", sample) }

    // Counts read from the raw sample: 11 lines; line 3 (a Swap of "-0.") is skipped; trades 8, 9,
    // 10, 11; transactions 2, 4, 5, 6, 7, 12.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "xtb")
        #expect(s.rows == 11)
        #expect(s.operations == 10)
        #expect(s.skipped == 1)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.merged == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.map(\.source.row) == [3])
        #expect(doc.skipped.first?.reason.contains("swap") == true)
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        #expect(doc.allTrades.count == 4)
        #expect(doc.allTransactions.count == 6)
        #expect(doc.portfolios.flatMap(\.movements).count == 0)
        #expect(doc.allTrades.map(\.source.row).sorted() == [8, 9, 10, 11])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 4, 5, 6, 7, 12])
    }

    // Values read from the sample's raw line 2: a Withdrawal of -500; 21.10.2024 09:12:40 in
    // Warsaw is CEST (UTC+2).
    @Test func withdrawal() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(t.id == "xtb:640000118")
        #expect(t.externalId == "640000118")
        #expect(t.time.description == "2024-10-21T07:12:40Z")
        #expect(t.type == .withdrawal)
        #expect(t.asset.text == "EUR")
        #expect(t.amount.description == "500")
        #expect(t.security == nil)
        #expect(t.note == "Withdrawal from 51234567")
    }

    // Values read from the sample's raw line 8: Stocks/ETF sale "CLOSE BUY 3 @ 115.200" of VWCE.DE
    // for 345.6; the id joins ID and side.
    @Test func saleFromTheComment() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 8 })
        #expect(t.externalId == "619870455-sell")
        #expect(t.time.description == "2024-09-20T13:41:07Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "VWCE")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "3")
        #expect(t.price.description == "115.2")
        #expect(t.amount?.description == "345.6")
        #expect(t.fees.isEmpty)
        #expect(t.name == "VWCE.DE")
    }

    // Values read from the sample's raw lines 9 and 10: a purchase in Portuguese ("Ações/ETF
    // compra", "OPEN BUY 0.5 @ 880.40", -440.2) and a part fill ("OPEN BUY 6/10 @ 112.0000", -672).
    @Test func purchases() throws {
        let doc = try Self.convert()
        let asml = try #require(doc.allTrades.first { $0.source.row == 9 })
        #expect(asml.externalId == "613004412-buy")
        #expect(asml.time.description == "2024-09-03T12:22:19Z")
        #expect(asml.side == .buy)
        #expect(asml.base.text == "ASML")
        #expect(asml.quantity.description == "0.5")
        #expect(asml.price.description == "880.4")
        #expect(asml.amount?.description == "440.2")
        #expect(asml.name == "ASML.NL")
        let part = try #require(doc.allTrades.first { $0.source.row == 10 })
        #expect(part.externalId == "612000157-buy")
        #expect(part.time.description == "2024-09-02T08:05:43Z")
        #expect(part.side == .buy)
        #expect(part.base.text == "VWCE")
        #expect(part.quantity.description == "6")
        #expect(part.price.description == "112")
        #expect(part.amount?.description == "672")
        let other = try #require(doc.allTrades.first { $0.source.row == 11 })
        #expect(other.externalId == "612000156-buy")
        #expect(other.quantity.description == "4")
        #expect(other.amount?.description == "448")
    }

    // Values read from the sample's raw lines 4-7 and 12: interest tax and interest, a dividend of
    // ASML.NL and its withholding tax (taxes by their negative sign), a deposit.
    @Test func cashRows() throws {
        let doc = try Self.convert()
        let interestTax = try #require(doc.allTransactions.first { $0.source.row == 4 })
        #expect(interestTax.time.description == "2024-10-07T07:36:50Z")
        #expect(interestTax.type == .tax)
        #expect(interestTax.amount.description == "0.35")
        let interest = try #require(doc.allTransactions.first { $0.source.row == 5 })
        #expect(interest.time.description == "2024-10-07T01:16:39Z")
        #expect(interest.type == .interest)
        #expect(interest.amount.description == "1.84")
        let withholding = try #require(doc.allTransactions.first { $0.source.row == 6 })
        #expect(withholding.externalId == "626512331")
        #expect(withholding.time.description == "2024-10-02T09:00:23Z")
        #expect(withholding.type == .tax)
        #expect(withholding.asset.text == "EUR")
        #expect(withholding.amount.description == "0.11")
        #expect(withholding.security == "ASML.NL")
        #expect(withholding.note == "ASML.NL EUR WHT 15%")
        let dividend = try #require(doc.allTransactions.first { $0.source.row == 7 })
        #expect(dividend.externalId == "626512330")
        #expect(dividend.type == .dividend)
        #expect(dividend.amount.description == "0.76")
        #expect(dividend.security == "ASML.NL")
        #expect(dividend.note == "ASML.NL EUR 1.5200/ SHR")
        let deposit = try #require(doc.allTransactions.first { $0.source.row == 12 })
        #expect(deposit.time.description == "2024-09-02T07:30:11Z")
        #expect(deposit.type == .deposit)
        #expect(deposit.amount.description == "2000")
    }
}
