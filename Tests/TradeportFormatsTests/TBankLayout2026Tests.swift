import Testing
import TradeportCore
import TradeportTestKit

@testable import TradeportFormats

/// The 2026 layout of the T-Bank report (`TBankReport2026`): section 2's operations with no label
/// and no header row, tickers with `@`, a security re-keyed under its ISIN, positions sold that
/// were held before the period; and the guard that no operation row is skipped as a reference row.
@Suite("T-Bank report, 2026 layout")
struct TBankLayout2026Tests {
    static func convert(_ rows: [[Int: Any]]) throws -> CanonicalDocument {
        try TestKit.convert(paths: [try TBankReport2026.write(rows)], with: TinkoffReportReader())
    }

    @Test("section 2 with no label and no header: every operation read, in RUB, the currency inferred and said so")
    func headerlessSectionTwo() throws {
        let doc = try Self.convert(TBankReport2026.report())
        #expect(doc.rejected.isEmpty, "\(doc.rejected)")
        let transactions = doc.allTransactions
        #expect(transactions.map { "\($0.type.rawValue) \($0.amount) \($0.asset)" } == ["deposit 5000 RUB", "coupon 50 RUB", "tax 20 RUB"])
        #expect(transactions.map(\.source.row) == [17, 24, 25])
        let deposit = transactions[0]
        #expect(deposit.time.description == "2026-01-05T07:00:00Z")  // 10:00 in Moscow
        #expect(transactions[1].security == "SU26238RMFS4")
        // The trades' cash legs and the DFP/RFP leg are skips saying so; nothing is a "balance summary" but the three lines.
        let reasons = doc.skipped.map(\.reason)
        #expect(reasons.filter { $0.hasPrefix("trade cash leg") }.count == 5)
        #expect(reasons.filter { $0.hasPrefix("balance summary") }.count == 3)
        #expect(doc.warnings.map(\.code) == ["inferred-currency"], "\(doc.warnings)")
        let warning = try #require(doc.warnings.first)
        #expect(warning.message.contains("section 2 prints 8 operation rows (rows 17–25) with no currency label and no header row: read as RUB"))
        #expect(warning.message.contains("RUB: opening 1000 + these rows 7516.5 = 8516.5, its closing"))
        #expect(warning.message.contains("USD: opening 5 + these rows 7516.5 = 7521.5, not its closing 5"))
        #expect(warning.source?.row == 17)
        // Everything the report prints reconciles.
        #expect(doc.reconciliation.allSatisfy { $0.reconciles }, "\(doc.reconciliation.filter { !$0.reconciles }.map(\.sentence))")
        #expect(doc.reconciliation.map(\.asset) == ["RUB", "USD", "EUR", "TGLD@", "SBER", "HRL", "SU26238RMFS4"])
    }

    @Test("a label row and no header row: the label's currency, no inference, no warning")
    func labelWithoutHeader() throws {
        let doc = try Self.convert(TBankReport2026.report(label: true))
        #expect(doc.rejected.isEmpty, "\(doc.rejected)")
        #expect(doc.allTransactions.map(\.asset.text) == ["RUB", "RUB", "RUB"])
        #expect(doc.warnings.isEmpty, "\(doc.warnings)")
        #expect(doc.reconciliation.allSatisfy { $0.reconciles })
    }

    @Test("tickers with @ read as they are printed")
    func atTickers() throws {
        let doc = try Self.convert(TBankReport2026.report())
        let tgld = try #require(doc.allTrades.first)
        #expect(tgld.base.text == "TGLD@" && tgld.quote.text == "RUB" && tgld.quantity == ExactDecimal("100"))
        #expect(tgld.isin == "RU000A101X50")
    }

    @Test("one security under a ticker and its ISIN is one position; the re-keying is no operation")
    func rekeyedSecurity() throws {
        let doc = try Self.convert(TBankReport2026.report())
        let hrl = try #require(doc.reconciliation.first { $0.asset == "HRL" })
        #expect(hrl.opening == ExactDecimal("7") && hrl.closing == ExactDecimal("6") && hrl.operations == ExactDecimal("-1") && hrl.reconciles)
        #expect(!doc.reconciliation.contains { $0.asset == "US4404521001" })
        #expect(doc.portfolios.flatMap(\.movements).isEmpty)
        let rows = doc.skipped.filter { $0.reason.contains("re-keyed") }
        #expect(rows.map(\.source.row) == [30, 31])
        #expect(rows[1].reason.contains("counted with row 30"))
        #expect(rows[0].reason.contains("the 6 units that moved from one code to the other not an operation"))
    }

    @Test("positions held before the period and sold in it give no negative-balance warning")
    func openingPositionsSeedTheReplay() throws {
        let doc = try Self.convert(TBankReport2026.report())
        #expect(!doc.warnings.contains { $0.code == "negative-balance" }, "\(doc.warnings)")
        // Without the opening balances the same sales go below zero: the check did run.
        var rows = TBankReport2026.report(label: true)
        let securities = rows.firstIndex { ($0[0] as? String)?.hasPrefix("3.1") == true }!
        rows.removeSubrange(securities..<(securities + 7))
        let bare = try Self.convert(rows)
        #expect(
            bare.warnings.filter { $0.code == "negative-balance" }.map { $0.message.prefix(26) }.sorted() == [
                "balance of HRL in portfoli", "balance of SBER in portfol"
            ])
    }

    @Test("a negative-balance warning says what the source printed was there")
    func warningNamesTheOpening() throws {
        // The deposit taken out: RUB goes below zero, given its opening of 1000.
        var operations = TBankReport2026.operations
        operations.removeFirst()
        let rows =
            TBankReport2026.title + TBankReport2026.deals
            + TBankReport2026.cash(label: true, balances: [TBankReport2026.balance("RUB", "1000", "3516,5")], operations: operations)
            + TBankReport2026.positions + TBankReport2026.securities
        let doc = try Self.convert(rows)
        let warning = try #require(doc.warnings.first { $0.code == "negative-balance" })
        #expect(
            warning.message.contains(
                "balance of RUB in portfolio main goes below zero, to -3, at 2026-01-10T08:00:00Z given the opening balance of 1000 that the source prints (row 13)"
            ))
    }

    @Test("when two currencies' balances fit, every row of the run is a reject naming both; none fits, likewise")
    func ambiguousCurrencyRejects() throws {
        let operations = [
            TBankReport2026.operation("05.01.2026", "10:00:00", "05.01.2026", "Пополнение счета", "100", "0"),
            TBankReport2026.operation("06.01.2026", "10:00:00", "06.01.2026", "Вывод средств", "0", "100")
        ]
        let ambiguous =
            TBankReport2026.title
            + TBankReport2026.cash(balances: [TBankReport2026.balance("RUB", "1000", "1000"), TBankReport2026.balance("USD", "5", "5")], operations: operations)
        let doc = try Self.convert(ambiguous)
        #expect(doc.allTransactions.isEmpty)
        #expect(doc.rejected.map(\.source.row) == [10, 11])
        #expect(!doc.rejected.contains { $0.errors.first?.message.contains("the balances of RUB and USD all fit them") != true }, "\(doc.rejected)")
        #expect(doc.rejected[0].errors[0].field == "asset")

        let none =
            TBankReport2026.title
            + TBankReport2026.cash(balances: [TBankReport2026.balance("RUB", "1000", "900")], operations: operations)
        let rejected = try Self.convert(none).rejected
        #expect(rejected.count == 2)
        #expect(
            rejected[0].errors[0].message.contains("no currency's printed balances fit them (RUB: opening 1000 + these rows 0 = 1000, not its closing 900)"))
    }

    @Test("a row under the summary that is neither a balance line nor an operation is a reject, not a skip")
    func unknownRowUnderTheSummary() throws {
        let rows =
            TBankReport2026.title
            + TBankReport2026.cash(balances: [
                TBankReport2026.balance("RUB", "1000", "8516,5"),
                [0: "Итого", 10: "1000", 20: "8516,5"],  // not a currency
                [0: "USD", 10: "5", 90: "5"]  // a cell under no header
            ])
        let doc = try Self.convert(rows)
        #expect(doc.rejected.map(\.source.row) == [8, 9])
        #expect(doc.rejected[0].errors[0].message.hasPrefix("a row under section 2's balance summary that is neither a currency's balance line"))
        #expect(doc.allTransactions.count == 3)
    }

    /// An operation row where only reference rows stand (a position, a security's description, a
    /// reference table, a pending deal) is rejected, never skipped.
    @Test(arguments: ["3.1", "4.1", "5", "1.2"])
    func operationRowsAmongReferenceRowsAreRejected(_ section: String) throws {
        var rows = TBankReport2026.report()
        let at = rows.firstIndex { ($0[0] as? String)?.hasPrefix(section + " ") == true || ($0[0] as? String)?.hasPrefix(section + ". ") == true }
        let deposit = TBankReport2026.operation("07.02.2026", "10:00:00", "07.02.2026", "Пополнение счета", "700", "0")
        if let at {
            rows.insert(deposit, at: at + 2)
        } else {
            // 1.2 is not in the report: added after 1.1 with its header.
            let end = rows.firstIndex { ($0[0] as? String)?.hasPrefix("2.") == true }!
            rows.insert(contentsOf: [[0: "1.2 Информация о неисполненных сделках на конец отчетного периода"], TBankReport2026.deals[1], deposit], at: end)
        }
        let doc = try Self.convert(rows)
        let rejected = try #require(doc.rejected.first, "section \(section): \(doc.skipped.suffix(3))")
        #expect(rejected.errors[0].message.hasPrefix("a cash operation («Пополнение счета») in section \(section)"), "\(rejected.errors)")
        #expect(!doc.skipped.contains { $0.source.row == rejected.source.row })
    }
}
