import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The tradeport-xlsx format (formats/tradeport-xlsx.yaml, generated from the field tables) over its
/// own sample (formats/samples/tradeport-xlsx-example.xlsx). The sample was written by XlsxWriter
/// (Python), not by tradeport, from the rows of tradeport-csv-example.csv: a sheet 'operations',
/// a bold header row, times and the settlement date as date cells, amounts as number cells, and the
/// one time with a fraction of a second as text (as tradeport's own XLSX writes such a time).
@Suite struct TradeportXlsxSpecTests {
    static let sample = BuiltInSample.path("tradeport-xlsx-example.xlsx")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("tradeport-xlsx", sample) }

    // Detection alone (no --format) picks tradeport-xlsx from the header row.
    @Test func detectedByItsHeader() throws {
        let prepared = try Inputs.prepare([InputRequest(path: Self.sample)], registry: .builtIn)
        #expect(prepared.map { $0.reader.id } == ["tradeport-xlsx"])
    }

    // Sheet rows 2-7, one operation each; the portfolio column places rows 2-5 in broker, 6-7 in savings.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        let s = try #require(doc.sources.first)
        #expect(s.format == "tradeport-xlsx")
        #expect(s.rows == 6 && s.operations == 6 && s.skipped == 0 && s.rejected == 0 && s.duplicates == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.portfolios.map(\.name).sorted() == ["broker", "savings"])
        #expect(doc.portfolio("broker")?.trades.count == 1 && doc.portfolio("broker")?.transactions.count == 3)
        #expect(doc.portfolio("savings")?.trades.count == 1 && doc.portfolio("savings")?.movements.count == 1)
    }

    // Row 3: a buy of 25 IWDA at 91.234 EUR (number cells), its time and settlement date as date
    // cells, broker fee 1.5 EUR.
    @Test func aTradeFromNumberAndDateCells() throws {
        let t = try #require(try Self.convert().allTrades.first { $0.source.row == 3 })
        #expect(t.source.sheet == "operations")
        #expect(t.id == "tradeport-xlsx:T-1" && t.externalId == "T-1")
        #expect(t.time.description == "2024-03-04T14:30:05Z")
        #expect(t.side == .buy && t.base.text == "IWDA" && t.quote.text == "EUR")
        #expect(t.quantity.description == "25" && t.price.description == "91.234" && t.amount?.description == "2280.85")
        #expect(t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } == ["1.5 EUR broker"])
        #expect(t.isin == "IE00B4L5Y983" && t.name == "iShares Core MSCI World" && t.venue == "XAMS")
        #expect(t.settlementDate?.description == "2024-03-06" && t.orderId == "O-77")
    }

    // Row 6: the time is a text cell 2024-09-30T10:15:00.25Z and keeps its quarter second; the
    // exchange fee 0.00002 is in BTC.
    @Test func aTimeWithAFractionOfASecond() throws {
        let t = try #require(try Self.convert().allTrades.first { $0.source.row == 6 })
        #expect(t.time.description == "2024-09-30T10:15:00.25Z")
        #expect(t.side == .sell && t.quantity.description == "0.015" && t.price.description == "56100" && t.amount?.description == "841.5")
        #expect(t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } == ["0.00002 BTC exchange"])
    }

    // Rows 4-5: a dividend whose note is the text '=looks like a formula' (a string cell, not a
    // formula) and its withholding tax; row 7 a movement in.
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
