import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

let deposit = "2019-11-27 15:29:05;Deposit;BTC;0,00028643;0;SYSTEM exchange;Invest;Complete;;3765477;;;"
let withdrawal = "2019-11-26 8:12:32;Withdraw;EOS;0,1;0,1;Trade;Cryptocurrency wallet;Complete;73ab48;3756656;;192.0.2.131;dsxwithdraw:1815623033"
let failedDeposit = "2019-11-19 8:11:53;Deposit;USD;0;0;ePayments wallet;Trade;Failed;;3736773;;192.0.2.24;"

@Suite("DSX transactions")
struct DSXTransactionsTests {
    let reader = BuiltIn.dsxTransactions

    @Test func readsDepositsAndWithdrawals() throws {
        let doc = try TestKit.convert([deposit, withdrawal].joined(separator: "\n"), with: reader)
        let byId = Dictionary(uniqueKeysWithValues: doc.allTransactions.map { ($0.externalId!, $0) })
        let d = try #require(byId["3765477"])
        #expect(d.type == .deposit && d.asset.text == "BTC" && d.amount == ExactDecimal("0.00028643") && d.fee == nil)
        #expect(d.account == "Invest" && d.counterparty == "SYSTEM exchange" && d.status == .complete)
        let w = try #require(byId["3756656"])
        #expect(w.type == .withdrawal && w.fee == CashFee(amount: ExactDecimal("0.1"), currency: AssetCode("EOS")!))
        #expect(w.account == "Trade" && w.counterparty == "Cryptocurrency wallet")
        #expect(w.txHash == "73ab48" && w.address == "dsxwithdraw:1815623033")
    }

    @Test func failedTransactionsAreSkippedUnlessKept() throws {
        let skipped = try TestKit.convert(failedDeposit, with: reader)
        #expect(skipped.allTransactions.isEmpty)
        #expect(skipped.skipped.map(\.reason) == ["failed transaction: it moved no money (--keep-failed outputs it)"])
        #expect(skipped.sources[0].rows == 1 && skipped.sources[0].skipped == 1)

        let kept = try TestKit.convert(failedDeposit, with: reader, options: ConversionOptions(keepFailed: true))
        #expect(kept.allTransactions.map(\.status) == [.failed])
        #expect(kept.allTransactions.first?.amount == .zero)
        // A failed transaction moves no money: no balance warning.
        #expect(kept.warnings.isEmpty)
    }

    @Test(arguments: [
        (2, "Depo"), (8, "Done"), (4, "0"), (4, "-5"), (4, ""), (5, "0,1,2"), (3, "B TC"), (10, ""), (1, "2019-11-27T15:29:05")
    ])
    func aBadValueRejectsItsRow(column: Int, value: String) throws {
        var fields = deposit.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        fields[column - 1] = value
        let doc = try TestKit.convert(fields.joined(separator: ";"), with: reader)
        #expect(doc.allTransactions.isEmpty)
        #expect(doc.rejected.first?.errors.map(\.column) == [column])
    }

    @Test func splitAccountsUsesToForDepositsAndFromForWithdrawals() throws {
        let doc = try TestKit.convert(
            [deposit, withdrawal].joined(separator: "\n"), with: reader, options: ConversionOptions(splitAccounts: true))
        #expect(doc.portfolios.map(\.name) == ["Invest", "Trade"])
        #expect(doc.portfolio("Invest")?.transactions.map(\.externalId) == ["3765477"])
        #expect(doc.portfolio("Trade")?.transactions.map(\.externalId) == ["3756656"])
    }

    @Test func detection() {
        #expect(TestKit.detects(reader, deposit + "\n" + withdrawal))
        #expect(!TestKit.detects(BuiltIn.dsxTrades, deposit))
    }
}
