import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The revolut-invest format (formats/revolut-invest.yaml) over its own sample
/// (formats/samples/revolut-invest-example.csv): a header row, then 11 lines (2-12) with currency
/// symbols, ISO times with fractions, and a decimal comma on the last line.
@Suite struct RevolutInvestSpecTests {
    static let sample = BuiltInSample.path("revolut-invest-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("revolut-invest", sample) }

    // Counts read from the raw sample: 12 lines; line 9 (shares moved between Revolut entities, $0)
    // is skipped; trades 3, 6, 8, 12, 13; transactions 2, 4, 5, 10, 11; a movement (STOCK SPLIT) 7.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "revolut-invest")
        #expect(s.rows == 12)
        #expect(s.operations == 11)
        #expect(s.skipped == 1)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.merged == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.map(\.source.row) == [9])
        #expect(doc.skipped.first?.reason.contains("Revolut entities") == true)
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        let movements = doc.portfolios.flatMap(\.movements)
        #expect(doc.allTrades.count == 5)
        #expect(doc.allTransactions.count == 5)
        #expect(movements.count == 1)
        #expect(doc.allTrades.map(\.source.row).sorted() == [3, 6, 8, 12, 13])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 4, 5, 10, 11])
        #expect(movements.map(\.source.row) == [7])
    }

    // Values read from the sample's raw line 2: CASH TOP-UP "$250", time with microseconds.
    @Test func topUp() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(t.externalId == nil)
        #expect(t.time.description == "2024-01-08T09:12:44.102938Z")
        #expect(t.type == .deposit)
        #expect(t.asset.text == "USD")
        #expect(t.amount.description == "250")
        #expect(t.security == nil)
    }

    // Values read from the sample's raw line 3: BUY - MARKET of 0.54171032 AAPL at "$184.60" for "$100".
    @Test func marketBuy() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(t.time.description == "2024-01-08T14:31:02.517Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "AAPL")
        #expect(t.quote.text == "USD")
        #expect(t.quantity.description == "0.54171032")
        #expect(t.price.description == "184.6")
        #expect(t.amount?.description == "100")
        #expect(t.fees.isEmpty)
    }

    // Values read from the sample's raw lines 8 and 12: a SELL - MARKET; a buy in EUR whose quantity
    // has a decimal comma ("0,18761726").
    @Test func sellAndDecimalCommaQuantity() throws {
        let doc = try Self.convert()
        let sell = try #require(doc.allTrades.first { $0.source.row == 8 })
        #expect(sell.time.description == "2024-07-19T13:45:09.664Z")
        #expect(sell.side == .sell)
        #expect(sell.base.text == "AAPL" && sell.quote.text == "USD")
        #expect(sell.quantity.description == "0.2")
        #expect(sell.price.description == "224.1")
        #expect(sell.amount?.description == "44.82")
        let sap = try #require(doc.allTrades.first { $0.source.row == 12 })
        #expect(sap.time.description == "2025-05-20T07:26:04.809Z")
        #expect(sap.side == .buy)
        #expect(sap.base.text == "SAP")
        #expect(sap.quote.text == "EUR")
        #expect(sap.quantity.description == "0.18761726")
        #expect(sap.price.description == "266.5")
        #expect(sap.amount?.description == "50")
    }

    // Values read from the sample's raw lines 4, 5, 10, 11: a dividend, a custody fee "-$0.02"
    // (a fee by its sign), a withdrawal "-$100", a top-up in EUR.
    @Test func cashRows() throws {
        let doc = try Self.convert()
        let dividend = try #require(doc.allTransactions.first { $0.source.row == 4 })
        #expect(dividend.time.description == "2024-02-15T12:00:07.381246Z")
        #expect(dividend.type == .dividend)
        #expect(dividend.asset.text == "USD")
        #expect(dividend.amount.description == "0.11")
        #expect(dividend.security == "AAPL")
        let custody = try #require(doc.allTransactions.first { $0.source.row == 5 })
        #expect(custody.time.description == "2024-03-01T08:04:19.002114Z")
        #expect(custody.type == .fee)
        #expect(custody.amount.description == "0.02")
        let withdrawal = try #require(doc.allTransactions.first { $0.source.row == 10 })
        #expect(withdrawal.time.description == "2024-09-12T10:01:55.12Z")
        #expect(withdrawal.type == .withdrawal)
        #expect(withdrawal.amount.description == "100")
        let euros = try #require(doc.allTransactions.first { $0.source.row == 11 })
        #expect(euros.type == .deposit)
        #expect(euros.asset.text == "EUR")
        #expect(euros.amount.description == "50")
    }

    // Values read from the sample's raw line 7: STOCK SPLIT of NVDA, +0.81 shares.
    @Test func stockSplitIsAMovementIn() throws {
        let doc = try Self.convert()
        let m = try #require(doc.portfolios.flatMap(\.movements).first { $0.source.row == 7 })
        #expect(m.time.description == "2024-06-10T07:30:11.890412Z")
        #expect(m.direction == .in)
        #expect(m.asset.text == "NVDA")
        #expect(m.quantity.description == "0.81")
        #expect(m.reason == .split)
    }

    // Issue 43, point 5. Line 13: SELL 0.5 @ $62.18 (31.09) for $31.07: a sale of 31.09 with
    // Revolut's charge of 0.02 (the cash, 31.07, unchanged). Line 3: BUY 0.54171032 @ $184.60
    // (99.99972…, 100.00 to the cent) for $100: no charge. Line 12: 0,18761726 @ €266.50 for €50.
    @Test func aChargeIsTheDifferenceBetweenQuantityTimesPriceAndTheTotal() throws {
        let doc = try Self.convert()
        let sell = try #require(doc.allTrades.first { $0.source.row == 13 })
        #expect(sell.side == .sell && sell.amount?.description == "31.09" && sell.price.description == "62.18")
        #expect(sell.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } == ["0.02 USD broker"])
        for row in [3, 8, 12] {
            let t = try #require(doc.allTrades.first { $0.source.row == row })
            #expect(t.fees.isEmpty, "line \(row)")
        }
        #expect(doc.allTrades.first { $0.source.row == 3 }?.amount?.description == "100")
    }
}
