import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The tradeport-csv format (formats/tradeport-csv.yaml, generated from the field tables) over its
/// own sample (formats/samples/tradeport-csv-example.csv): a header row, then a broker portfolio's
/// deposit, trade with a fee, dividend and its tax, and a savings portfolio's crypto sell whose time
/// has a fraction of a second (what the own CSV writes for such a time) and a movement in.
@Suite struct TradeportCsvSpecTests {
    static let sample = BuiltInSample.path("tradeport-csv-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("tradeport-csv", sample) }

    // Counts read from the raw sample: 6 data lines (2-7), one operation each.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        let s = try #require(doc.sources.first)
        #expect(s.format == "tradeport-csv")
        #expect(s.rows == 6 && s.operations == 6 && s.skipped == 0 && s.rejected == 0 && s.duplicates == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        // The portfolio column places each row: lines 2-5 in broker, 6-7 in savings.
        #expect(doc.portfolios.map(\.name).sorted() == ["broker", "savings"])
        #expect(doc.portfolio("broker")?.trades.count == 1 && doc.portfolio("broker")?.transactions.count == 3)
        #expect(doc.portfolio("savings")?.trades.count == 1 && doc.portfolio("savings")?.movements.count == 1)
    }

    // Line 3: a buy of 25 IWDA at 91.234 EUR, amount 2280.85, broker fee 1.5 EUR, with its ISIN,
    // name, venue, settlement date and order id.
    @Test func aTradeWithItsFee() throws {
        let t = try #require(try Self.convert().allTrades.first { $0.source.row == 3 })
        #expect(t.id == "tradeport-csv:T-1" && t.externalId == "T-1")
        #expect(t.time.description == "2024-03-04T14:30:05Z")
        #expect(t.side == .buy && t.base.text == "IWDA" && t.quote.text == "EUR")
        #expect(t.quantity.description == "25" && t.price.description == "91.234" && t.amount?.description == "2280.85")
        #expect(t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } == ["1.5 EUR broker"])
        #expect(t.isin == "IE00B4L5Y983" && t.name == "iShares Core MSCI World" && t.venue == "XAMS")
        #expect(t.settlementDate?.description == "2024-03-06" && t.orderId == "O-77")
    }

    // Line 6: the time 2024-09-30T10:15:00.25Z keeps its quarter second; the exchange fee is in BTC.
    @Test func aTimeWithAFractionOfASecond() throws {
        let t = try #require(try Self.convert().allTrades.first { $0.source.row == 6 })
        #expect(t.time.description == "2024-09-30T10:15:00.25Z")
        #expect(t.side == .sell && t.quantity.description == "0.015" && t.price.description == "56100")
        #expect(t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } == ["0.00002 BTC exchange"])
    }

    // Lines 4-5: a dividend whose note a spreadsheet would run ('= quoted: the quote comes off) and
    // its withholding tax, whose note holds a comma; line 7 a movement in.
    @Test func transactionsAndAMovement() throws {
        let doc = try Self.convert()
        let dividend = try #require(doc.allTransactions.first { $0.source.row == 4 })
        #expect(dividend.type == .dividend && dividend.amount.description == "12.34" && dividend.security == "IE00B4L5Y983")
        #expect(dividend.note == "=looks like a formula")
        let tax = try #require(doc.allTransactions.first { $0.source.row == 5 })
        #expect(tax.type == .tax && tax.amount.description == "1.85" && tax.note == "withholding, 15%")
        let movement = try #require(doc.portfolio("savings")?.movements.first)
        #expect(movement.direction == .in && movement.asset.text == "ETH" && movement.quantity.description == "0.5")
        #expect(movement.reason == .transfer && movement.note == "from a wallet")
    }
}
