import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

let goodTrade = "2019-11-25 8:08:44;eosbtc;Buy;1;EOS;0,0003597;BTC;0,0003597;BTC;0,0025;EOS;Invest;37605094;877454884"

@Suite("DSX trades")
struct DSXTradesTests {
    let reader = BuiltIn.dsxTrades

    @Test func readsARow() throws {
        let doc = try TestKit.convert(goodTrade, with: reader)
        let t = try #require(doc.allTrades.first)
        #expect(t.id == "dsx-trades:37605094")
        #expect(t.externalId == "37605094")
        #expect(t.time.description == "2019-11-25T08:08:44Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "EOS" && t.quote.text == "BTC")
        #expect(t.quantity == ExactDecimal("1") && t.price == ExactDecimal("0.0003597") && t.amount == ExactDecimal("0.0003597"))
        #expect(t.fees == [TradeFee(amount: ExactDecimal("0.0025"), currency: AssetCode("EOS")!, kind: .exchange)])
        #expect(t.account == "Invest" && t.orderId == "877454884" && t.venue == "DSX")
        #expect(t.source.row == 1)
        #expect(doc.sources.first?.rows == 1 && doc.sources.first?.operations == 1)
    }

    @Test func codesLongerThanThreeLettersComeFromTheirColumns() throws {
        let doc = try TestKit.convert(
            "2021-03-02 14:05:09;eursusdt;Buy;250;EURS;1,2034;USDT;300,85;USDT;0,625;EURS;Main;1;2", with: reader)
        #expect(doc.allTrades.first.map { "\($0.base)/\($0.quote)" } == "EURS/USDT")
    }

    /// The errors of the single rejected row of `row`.
    func errors(_ row: String) throws -> [FieldError] {
        let doc = try TestKit.convert(goodTrade + "\n" + row, with: reader)
        #expect(doc.allTrades.count == 1)
        #expect(doc.rejected.count == 1)
        let rejected = try #require(doc.rejected.first)
        #expect(rejected.source.row == 2)
        #expect(rejected.raw == row)
        return rejected.errors
    }

    func replacing(_ column: Int, with value: String) -> String {
        var fields = goodTrade.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        fields[column - 1] = value
        return fields.joined(separator: ";")
    }

    @Test(arguments: [
        (4, "1,2,3", "quantity"), (4, "1 000,5", "quantity"), (4, "", "quantity"), (4, "-1", "quantity"),
        (4, "0", "quantity"), (6, "-0,5", "price"), (6, "1.5", "price"), (8, "abc", "amount"), (10, "0,0,1", "fee"),
        (3, "Sel", "side"), (3, "buy", "side"), (1, "2019-02-30 8:08:44", "time"), (1, "25.11.2019 8:08:44", "time"),
        (1, "2019-11-25 24:00:00", "time"), (5, "E OS", "base"), (2, "ethbtc", "instrument"), (9, "USD", "amountCurrency"),
        (13, "", "externalId")
    ])
    func aBadValueRejectsItsRowNamingTheColumn(column: Int, value: String, field: String) throws {
        let e = try errors(replacing(column, with: value))
        #expect(e.count == 1)
        #expect(e.first?.column == column)
        #expect(e.first?.field == field)
        #expect(e.first?.message.isEmpty == false)
    }

    @Test func aMissingColumnRejectsTheRow() throws {
        let e = try errors("2019-11-25 8:08:44;eosbtc;Buy;1;EOS;0,0003597;BTC;0,0003597;BTC;0,0025;EOS;Invest;37605094")
        #expect(e.count == 1 && e[0].column == nil && e[0].message.contains("found 13"))
    }

    @Test func everyErrorOfARowIsNamed() throws {
        let e = try errors("2019-02-30 8:08:44;eosbtc;Sel;-1;EOS;x;BTC;0,0003597;BTC;0,0025;EOS;Invest;37605095;1")
        #expect(e.map(\.column) == [1, 3, 4, 6])
    }

    @Test func theSourceZoneCanBeGiven() throws {
        var options = ConversionOptions()
        options.read.timeZone = SourceTimeZone(identifier: "Europe/Moscow")
        let doc = try TestKit.convert(goodTrade, with: reader, options: options)
        #expect(doc.allTrades.first?.time.description == "2019-11-25T05:08:44Z")
    }

    @Test func detection() {
        #expect(TestKit.detects(reader, goodTrade))
        #expect(!TestKit.detects(BuiltIn.dsxTransactions, goodTrade))
        #expect(!TestKit.detects(reader, "time,instrument,side\n1,2,3\n"))
        #expect(!TestKit.detects(reader, "\u{0}\u{1}binary"))
        // A file with a bad row still detects by its other rows.
        #expect(TestKit.detects(reader, goodTrade + "\nbroken;row\n" + goodTrade + "\n" + goodTrade))
    }
}

@Suite("DSX edge cases")
struct DSXEdgeCaseTests {
    @Test func aTimeThatLeavesTheWritableYearsIsRejected() throws {
        var options = ConversionOptions()
        options.read.timeZone = SourceTimeZone(identifier: "America/New_York")
        let row = goodTrade.replacingOccurrences(of: "2019-11-25 8:08:44", with: "9999-12-31 23:00:00")
        let doc = try TestKit.convert(row, with: BuiltIn.dsxTrades, options: options)
        #expect(doc.rejected.first?.errors.map(\.column) == [1])
    }

    @Test func aCachedAssetCodeDoesNotHideABadOne() throws {
        let bad = goodTrade.replacingOccurrences(of: ";EOS;0,0003597", with: ";\u{0}EOS;0,0003597")
        let doc = try TestKit.convert(goodTrade + "\n" + bad, with: BuiltIn.dsxTrades)
        #expect(doc.rejected.first?.errors.first?.column == 5)
    }

    @Test func aBalanceBeyondThirtyEightDigitsIsWarnedNotRounded() throws {
        let big = "90000000000000000000000000000000000000"
        let rows = (1...2).map { "2019-01-0\($0) 10:00:00;Deposit;USD;\(big);0;Bank;Main;Complete;;\($0);;;" }
        let doc = try TestKit.convert(rows.joined(separator: "\n"), with: BuiltIn.dsxTransactions)
        #expect(doc.allTransactions.count == 2)
        #expect(doc.warnings.map(\.code) == ["balance-untracked"])
        #expect(doc.warnings.first?.source?.row == 2)
    }
}
