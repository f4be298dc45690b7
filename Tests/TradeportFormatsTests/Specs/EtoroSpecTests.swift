import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The etoro format (formats/etoro.yaml) over its own sample (formats/samples/etoro-example.csv):
/// a header row, then 12 lines (2-13) whose numbers mix notations ("2,000.00", " 300,00 ", "(0,12)").
@Suite struct EtoroSpecTests {
    static let sample = BuiltInSample.path("etoro-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("etoro", sample) }

    // Counts read from the raw sample: 12 lines; line 11 (Withdraw Fee of 0.00) and line 12 (the
    // Withdrawal Conversion Fee inside the Withdraw Request: Realized Equity Change 0.00, Balance
    // 1,510.43 → 510.43 by the request's 1,000.00 alone) are skipped; trades are lines 3, 4 (Open
    // Position) and 7 (Position closed); the 7 others are transactions.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "etoro")
        #expect(s.rows == 12)
        #expect(s.operations == 10)
        #expect(s.skipped == 2)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.merged == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.map(\.source.row) == [11, 12])
        #expect(doc.skipped.first?.reason.contains("0.00") == true)
        #expect(doc.skipped.last?.reason.contains("inside the Withdraw Request") == true)
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        #expect(doc.allTrades.count == 3)
        #expect(doc.allTransactions.count == 7)
        #expect(doc.portfolios.flatMap(\.movements).count == 0)
        #expect(doc.allTrades.map(\.source.row).sorted() == [3, 4, 7])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 5, 6, 8, 9, 10, 13])
    }

    // Values read from the sample's raw line 2: a Deposit of "2,000.00" (thousands comma); no
    // Position ID ('-'), which the id joins with Type and Date as written.
    @Test func deposit() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(t.externalId == "- Deposit 02/02/2024 09:12:44")
        #expect(t.id == "etoro:- Deposit 02/02/2024 09:12:44")
        #expect(t.time.description == "2024-02-02T09:12:44Z")
        #expect(t.type == .deposit)
        #expect(t.asset.text == "USD")
        #expect(t.amount.description == "2000")
        #expect(t.security == nil)
    }

    // Values read from the sample's raw line 3: Open Position MSFT/USD, 500.00 USD for 1.227446
    // units: price 500 / 1.227446 rounded to 8 digits = 407.34989564.
    @Test func openPositionIsABuy() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(t.externalId == "2701234567 Open Position 05/02/2024 14:31:07")
        #expect(t.time.description == "2024-02-05T14:31:07Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "MSFT")
        #expect(t.quote.text == "USD")
        #expect(t.quantity.description == "1.227446")
        #expect(t.price.description == "407.34989564")
        #expect(t.amount?.description == "500")
        #expect(t.fees.isEmpty)
        #expect(t.venue == "eToro")
    }

    // Values read from the sample's raw lines 4 and 7: a CFD opened for " 300,00 " (decimal comma,
    // spaces) and closed for " 309,84 ", 2.096436 units each: prices 143.10000401 and 147.79368414.
    @Test func cfdOpenedAndClosedWithDecimalCommas() throws {
        let doc = try Self.convert()
        let open = try #require(doc.allTrades.first { $0.source.row == 4 })
        #expect(open.externalId == "2701234999 Open Position 05/02/2024 14:35:52")
        #expect(open.time.description == "2024-02-05T14:35:52Z")
        #expect(open.side == .buy)
        #expect(open.base.text == "GOOG" && open.quote.text == "USD")
        #expect(open.quantity.description == "2.096436")
        #expect(open.price.description == "143.10000401")
        #expect(open.amount?.description == "300")
        let closed = try #require(doc.allTrades.first { $0.source.row == 7 })
        #expect(closed.externalId == "2701234999 Position closed 12/02/2024 16:02:11")
        #expect(closed.time.description == "2024-02-12T16:02:11Z")
        #expect(closed.side == .sell)
        #expect(closed.base.text == "GOOG" && closed.quote.text == "USD")
        #expect(closed.quantity.description == "2.096436")
        #expect(closed.price.description == "147.79368414")
        #expect(closed.amount?.description == "309.84")
    }

    // Values read from the sample's raw lines 5 and 6: Overnight fee "(0,12)" (negative in
    // parentheses: a fee) and Overnight refund " 0,05 " (positive: a fee-refund).
    @Test func overnightFeeAndRefundBySign() throws {
        let doc = try Self.convert()
        let fee = try #require(doc.allTransactions.first { $0.source.row == 5 })
        #expect(fee.externalId == "2701234999 Overnight fee 06/02/2024 00:47:19")
        #expect(fee.time.description == "2024-02-06T00:47:19Z")
        #expect(fee.type == .fee)
        #expect(fee.asset.text == "USD")
        #expect(fee.amount.description == "0.12")
        #expect(fee.security == nil)
        let refund = try #require(doc.allTransactions.first { $0.source.row == 6 })
        #expect(refund.time.description == "2024-02-07T00:45:03Z")
        #expect(refund.type == .feeRefund)
        #expect(refund.amount.description == "0.05")
    }

    // Values read from the sample's raw lines 8, 9, 10, 13: a dividend of MSFT, interest, SDRT
    // "(0.61)" on BARC/GBX (a tax), the withdrawal "-1,000.00" (its conversion fee, line 12, inside it:
    // issue 43, point 4).
    @Test func cashRows() throws {
        let doc = try Self.convert()
        let dividend = try #require(doc.allTransactions.first { $0.source.row == 8 })
        #expect(dividend.time.description == "2024-02-15T00:09:58Z")
        #expect(dividend.type == .dividend)
        #expect(dividend.amount.description == "0.92")
        #expect(dividend.security == "MSFT")
        let interest = try #require(doc.allTransactions.first { $0.source.row == 9 })
        #expect(interest.type == .interest)
        #expect(interest.amount.description == "0.35")
        #expect(interest.security == nil)
        let sdrt = try #require(doc.allTransactions.first { $0.source.row == 10 })
        #expect(sdrt.time.description == "2024-03-04T11:20:15Z")
        #expect(sdrt.type == .tax)
        #expect(sdrt.asset.text == "USD")
        #expect(sdrt.amount.description == "0.61")
        #expect(sdrt.security == "BARC")
        #expect(doc.allTransactions.first { $0.source.row == 12 } == nil)
        let withdrawal = try #require(doc.allTransactions.first { $0.source.row == 13 })
        #expect(withdrawal.externalId == "- Withdraw Request 06/03/2024 10:02:26")
        #expect(withdrawal.time.description == "2024-03-06T10:02:26Z")
        #expect(withdrawal.type == .withdrawal)
        #expect(withdrawal.amount.description == "1000")
    }
}
