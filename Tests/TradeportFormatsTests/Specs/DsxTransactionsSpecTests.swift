import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The dsx-transactions format (formats/dsx-transactions.yaml) over its own sample
/// (formats/samples/dsx-transactions-example.csv): headerless ';' lines 1-9, decimal commas, UTC.
@Suite struct DsxTransactionsSpecTests {
    static let sample = BuiltInSample.path("dsx-transactions-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("dsx-transactions", sample) }

    // Counts read from the raw sample: 9 lines; line 2 is Rejected and line 4 Failed (no money
    // moved: skipped without --keep-failed), the 7 others Complete.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "dsx-transactions")
        #expect(s.rows == 9)
        #expect(s.operations == 7)
        #expect(s.skipped == 2)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.merged == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.map(\.source.row).sorted() == [2, 4])
        let rejectedStatus = try #require(doc.skipped.first { $0.source.row == 2 })
        #expect(rejectedStatus.reason.hasPrefix("rejected"))
        let failedStatus = try #require(doc.skipped.first { $0.source.row == 4 })
        #expect(failedStatus.reason.hasPrefix("failed"))
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        #expect(doc.allTrades.count == 0)
        #expect(doc.allTransactions.count == 7)
        #expect(doc.portfolios.flatMap(\.movements).count == 0)
        #expect(doc.allTransactions.map(\.source.row).sorted() == [1, 3, 5, 6, 7, 8, 9])
        #expect(doc.allTransactions.filter { $0.type == .withdrawal }.map(\.source.row) == [1])
        #expect(doc.allTransactions.allSatisfy { $0.status == .complete })
    }

    // Values read from the sample's raw line 1: a withdrawal with a fee; the account is the
    // 'from' column (6), the counterparty the 'to' column (7).
    @Test func withdrawalWithAFee() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 1 })
        #expect(t.id == "dsx-transactions:5100006")
        #expect(t.externalId == "5100006")
        #expect(t.time.description == "2021-03-02T16:20:00Z")
        #expect(t.type == .withdrawal)
        #expect(t.asset.text == "USD")
        #expect(t.amount.description == "100")
        #expect(t.fee.map { "\($0.amount) \($0.currency)" } == "0.5 USD")
        #expect(t.status == .complete)
        #expect(t.account == "Main")
        #expect(t.counterparty == "Bank account")
        #expect(t.note == nil)
        #expect(t.txHash == nil)
        #expect(t.address == nil)
    }

    // Values read from the sample's raw line 3: a deposit with a zero fee (none), a one-digit
    // hour (8:30:00), a transaction hash (column 9) and an address (column 13).
    @Test func depositWithHashAndAddress() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 3 })
        #expect(t.externalId == "5100004")
        #expect(t.time.description == "2021-02-26T08:30:00Z")
        #expect(t.type == .deposit)
        #expect(t.asset.text == "USDT")
        #expect(t.amount.description == "800")
        #expect(t.fee == nil)
        #expect(t.account == "Main")
        #expect(t.counterparty == "Cryptocurrency wallet")
        #expect(t.txHash == "9f2c4e0a1b7d3e5f6a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f")
        #expect(t.address == "tradeportdeposit:1234567890")
        #expect(t.note == nil)
    }

    // Values read from the sample's raw line 9: a deposit of a decimal-comma amount to Savings.
    @Test func depositToSavings() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 9 })
        #expect(t.externalId == "5099998")
        #expect(t.time.description == "2021-02-25T08:56:00Z")
        #expect(t.type == .deposit)
        #expect(t.asset.text == "BTC")
        #expect(t.amount.description == "0.1")
        #expect(t.account == "Savings")
        #expect(t.counterparty == "Cryptocurrency wallet")
    }
}
