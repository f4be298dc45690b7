import Foundation
import Testing
import TradeportCore
import TradeportTestKit

@testable import TradeportFormats

/// The Activity Statement reader on its two samples (formats/samples/, their operations worked out
/// by hand in ibkr_activity_expected.py) and on small statements that each show one rule.
@Suite("IBKR Activity Statement")
struct IBKRActivityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func sample(_ name: String) -> String { root + "/formats/samples/" + name }

    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    static func code(_ text: String) -> AssetCode { AssetCode(text)! }

    /// The first lines of a statement (4 lines), for the small ones.
    static let opening = """
        Statement,Header,Field Name,Field Value
        Statement,Data,Title,Activity Statement
        Account Information,Header,Field Name,Field Value
        Account Information,Data,Base Currency,USD

        """

    /// Line 5 of a small statement.
    static let tradesHeader =
        "Trades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,T. Price,C. Price,Proceeds,Comm/Fee,Basis,Realized P/L,MTM P/L,Code\n"

    @Test("the 2024 sample: stocks in two currencies, Forex, cash sections, balances that reconcile")
    func reads2024Sample() throws {
        let document = try TestKit.convert(paths: [Self.sample("ibkr-activity-example.csv")], with: IBKRActivityReader())
        let source = try #require(document.sources.first)
        #expect(source.rows == 140)
        #expect(source.operations == 16)
        #expect(source.skipped == 124)
        #expect(source.rejected == 0)
        #expect(document.rejected.isEmpty)

        let trades = document.allTrades
        #expect(trades.count == 4)
        let buy = try #require(trades.first { $0.time == Self.time("2024-01-16T15:30:00Z") })
        #expect(buy.side == .buy)
        #expect(buy.base == Self.code("US0000TEST01"))
        #expect(buy.quote == Self.code("USD"))
        #expect(buy.quantity == ExactDecimal("20"))
        #expect(buy.price == ExactDecimal("96.5"))
        #expect(buy.amount == ExactDecimal("1930"))
        #expect(buy.fees == [TradeFee(amount: ExactDecimal("1"), currency: Self.code("USD"), kind: .broker)])
        #expect(buy.isin == "US0000TEST01")

        let sell = try #require(trades.first { $0.time == Self.time("2024-06-12T19:59:58Z") })
        #expect(sell.side == .sell)
        #expect(sell.quantity == ExactDecimal("5"))
        #expect(sell.fees == [TradeFee(amount: ExactDecimal("1.002345"), currency: Self.code("USD"), kind: .broker)])

        // Forex: "-4,600" EUR sold for USD, the commission in the currency its column names.
        let fx = try #require(trades.first { $0.time == Self.time("2024-01-04T09:15:22Z") })
        #expect(fx.side == .sell)
        #expect(fx.base == Self.code("EUR"))
        #expect(fx.quote == Self.code("USD"))
        #expect(fx.quantity == ExactDecimal("4600"))
        #expect(fx.price == ExactDecimal("1.087"))
        #expect(fx.amount == ExactDecimal("5000.2"))
        #expect(fx.fees == [TradeFee(amount: ExactDecimal("1.84"), currency: Self.code("EUR"), kind: .broker)])

        let transactions = document.allTransactions
        #expect(transactions.count == 12)
        func find(_ type: CashTransactionType, _ time: String, _ asset: String) -> CashTransaction? {
            transactions.first { $0.type == type && $0.time == Self.time(time) && $0.asset == Self.code(asset) }
        }
        let dividend = try #require(find(.dividend, "2024-03-27T04:00:00Z", "USD"))
        #expect(dividend.amount == ExactDecimal("16.4"))
        #expect(dividend.security == "US0000TEST01")
        let tax = try #require(find(.tax, "2024-03-27T04:00:00Z", "USD"))
        #expect(tax.amount == ExactDecimal("2.46"))
        #expect(tax.security == "US0000TEST01")
        #expect(find(.deposit, "2024-01-03T05:00:00Z", "EUR")?.amount == ExactDecimal("10000"))
        #expect(find(.withdrawal, "2024-11-20T05:00:00Z", "EUR")?.amount == ExactDecimal("1500"))
        #expect(find(.fee, "2024-02-05T05:00:00Z", "USD")?.amount == ExactDecimal("10"))
        #expect(find(.feeRefund, "2024-02-05T05:00:00Z", "USD")?.amount == ExactDecimal("10"))
        #expect(find(.interest, "2024-04-03T04:00:00Z", "EUR")?.amount == ExactDecimal("3.12"))

        // The Cash Report's EUR and USD and the Mark-to-Market summary's two stocks.
        let cash = document.reconciliation.filter { $0.kind == .cash }.map(\.asset).sorted()
        #expect(cash == ["EUR", "USD"])
        #expect(document.reconciliation.count == 4)
        #expect(document.reconciliation.allSatisfy { $0.reconciles }, "\(document.reconciliation.map(\.sentence))")

        let skips = Dictionary(document.skipped.map { ($0.source.row, $0.reason) }, uniquingKeysWith: { a, _ in a })
        #expect(skips[85]?.contains("lot") == true)
        #expect(skips[89]?.contains("header") == true)
        #expect(skips[97]?.contains("totals") == true)
        #expect(skips[115]?.contains("accruals") == true)
    }

    @Test("the 2019 sample: one currency, no ISINs, a reversal, a payment in lieu, a tax refund")
    func reads2019Sample() throws {
        let document = try TestKit.convert(paths: [Self.sample("ibkr-activity-2019-example.csv")], with: IBKRActivityReader())
        let source = try #require(document.sources.first)
        #expect(source.rows == 72)
        #expect(source.operations == 16)
        #expect(source.skipped == 56)
        #expect(source.rejected == 0)

        // "1,000" units; Security ID is empty before 2020: the symbol names the asset.
        let gamma = try #require(document.allTrades.first { $0.time == Self.time("2019-08-20T15:02:10Z") })
        #expect(gamma.base == Self.code("TSTC"))
        #expect(gamma.quantity == ExactDecimal("1000"))
        #expect(gamma.price == ExactDecimal("2.9984"))
        #expect(gamma.amount == ExactDecimal("2998.4"))

        let transactions = document.allTransactions
        let reversal = try #require(transactions.first { $0.type == .dividendCharge })
        #expect(reversal.amount == ExactDecimal("23.5"))
        #expect(reversal.time == Self.time("2019-12-30T05:00:00Z"))
        let inLieu = try #require(transactions.first { $0.time == Self.time("2019-12-24T05:00:00Z") && $0.type == .dividend })
        #expect(inLieu.amount == ExactDecimal("3.92"))
        let refund = try #require(transactions.first { $0.type == .taxRefund })
        #expect(refund.amount == ExactDecimal("2.35"))
        #expect(transactions.filter { $0.type == .tax }.count == 4)

        // Only the Base Currency Summary: it is the base currency's (USD) cash.
        let usd = try #require(document.reconciliation.first { $0.asset == "USD" })
        #expect(usd.reconciles, "\(usd.sentence)")
    }

    @Test("a file past the size a statement is held whole at is refused, naming the limit, before it is all read")
    func aFileTooLargeToHoldIsRefused() throws {
        let input = try SourceInput(path: Self.sample("ibkr-activity-example.csv"))
        #expect(throws: InputError.self) { _ = try IBKRActivityLine.readAll(input, maxBytes: 1 << 10) }
        do {
            _ = try IBKRActivityLine.readAll(try SourceInput(path: Self.sample("ibkr-activity-example.csv")), maxBytes: 1 << 10)
        } catch let error as InputError {
            #expect(error.description.contains("an Activity Statement is held whole"), "\(error)")
        }
        #expect(try IBKRActivityLine.readAll(try SourceInput(path: Self.sample("ibkr-activity-example.csv"))).count > 100)
    }

    @Test("a line of an unknown section is rejected naming the section")
    func unknownSectionIsRejected() throws {
        let text = Self.opening + "Mystery Section,Header,Name,Value\nMystery Section,Data,a,1\n"
        let document = try TestKit.convert(text, with: IBKRActivityReader())
        #expect(document.rejected.count == 2)
        let reject = try #require(document.rejected.first { $0.source.row == 6 })
        #expect(reject.raw == "Mystery Section,Data,a,1")
        let error = try #require(reject.errors.first)
        #expect(error.column == 1)
        #expect(error.message.contains("'Mystery Section'"))
    }

    @Test("a row kind tradeport does not know is rejected naming it")
    func unknownRowKindIsRejected() throws {
        let text = Self.opening + "Dividends,Header,Currency,Date,Description,Amount\nDividends,Footer,USD,2024-03-27,x,1\n"
        let document = try TestKit.convert(text, with: IBKRActivityReader())
        let reject = try #require(document.rejected.first)
        #expect(reject.source.row == 6)
        #expect(reject.errors.first?.column == 2)
        #expect(reject.errors.first?.message.contains("'Footer'") == true)
    }

    @Test("SubTotal and Total lines of Trades are skipped; the Order line above them is the trade")
    func totalsAreSkipped() throws {
        let text =
            Self.opening + Self.tradesHeader
            + "Trades,Data,Order,Stocks,USD,TSTA,\"2024-01-16, 10:30:00\",\"2,000\",96.5,96.9,-193000,-1,193001,0,8,O\n"
            + "Trades,SubTotal,,Stocks,USD,TSTA,,\"2,000\",,,-193000,-1,193001,0,8,\n"
            + "Trades,Total,,Stocks,USD,,,,,,-193000,-1,193001,0,8, \n"
        let document = try TestKit.convert(text, with: IBKRActivityReader())
        #expect(document.rejected.isEmpty)
        let trade = try #require(document.allTrades.first)
        #expect(document.allTrades.count == 1)
        #expect(trade.quantity == ExactDecimal("2000"))
        #expect(trade.base == Self.code("TSTA"))
        let reasons = Dictionary(document.skipped.map { ($0.source.row, $0.reason) }, uniquingKeysWith: { a, _ in a })
        #expect(reasons[7]?.contains("subtotal") == true)
        #expect(reasons[8]?.contains("total") == true)
        #expect(document.sources.first?.skipped == 7)
    }

    @Test("a malformed date in Trades is rejected naming the column and the text")
    func malformedDateIsRejected() throws {
        let text =
            Self.opening + Self.tradesHeader
            + "Trades,Data,Order,Stocks,USD,TSTA,\"2024-13-45, 10:30:00\",20,96.5,96.9,-1930,-1,1931,0,8,O\n"
        let document = try TestKit.convert(text, with: IBKRActivityReader())
        #expect(document.allTrades.isEmpty)
        let reject = try #require(document.rejected.first)
        #expect(reject.source.row == 6)
        let error = try #require(reject.errors.first)
        #expect(error.column == 7)
        #expect(error.field == "Date/Time")
        #expect(error.message.contains("'2024-13-45, 10:30:00'"))
        #expect(error.message.contains("yyyy-MM-dd, HH:mm:ss"))
    }

    @Test("a German statement: translated sections and columns, Forex commission in the base currency")
    func readsGerman() throws {
        let text = """
            Statement,Header,Feldname,Feldwert
            Kontoinformation,Header,Feldname,Feldwert
            Kontoinformation,Data,Basiswährung,EUR
            Transaktionen,Header,DataDiscriminator,Vermögenswertkategorie,Währung,Symbol,Datum/Zeit,Menge,T.-Kurs,,Erträge,Provisionseink. EUR,,,MTM in EUR,Code
            Transaktionen,Data,Order,Devisen,USD,EUR.USD,"2021-06-18, 15:00:00","-2,000",1.19,,2380,-1.7,,,0,
            Einzahlungen & Auszahlungen,Header,Währung,Abwicklungsdatum,Beschreibung,Betrag
            Einzahlungen & Auszahlungen,Data,EUR,2021-01-05,Electronic Fund Transfer,15000
            Einzahlungen & Auszahlungen,Data,Gesamt,,,15000

            """
        let document = try TestKit.convert(text, with: IBKRActivityReader())
        #expect(document.rejected.isEmpty)
        let fx = try #require(document.allTrades.first)
        #expect(fx.side == .sell)
        #expect(fx.base == Self.code("EUR"))
        #expect(fx.quantity == ExactDecimal("2000"))
        #expect(fx.time == Self.time("2021-06-18T19:00:00Z"))
        #expect(fx.fees == [TradeFee(amount: ExactDecimal("1.7"), currency: Self.code("EUR"), kind: .broker)])
        let deposit = try #require(document.allTransactions.first)
        #expect(deposit.type == .deposit)
        #expect(deposit.time == Self.time("2021-01-05T05:00:00Z"))
        #expect(document.sources.first?.skipped == 6)
    }

    @Test("--timezone replaces New York")
    func timeZoneOption() throws {
        let text =
            Self.opening + Self.tradesHeader
            + "Trades,Data,Order,Stocks,USD,TSTA,\"2024-01-16, 10:30:00\",20,96.5,96.9,-1930,-1,1931,0,8,O\n"
        let options = ConversionOptions(read: ReadOptions(timeZone: .utc))
        let document = try TestKit.convert(text, with: IBKRActivityReader(), options: options)
        #expect(document.allTrades.first?.time == Self.time("2024-01-16T10:30:00Z"))
    }

    @Test("detection takes both samples and neither a Flex export nor a Transaction History")
    func detection() throws {
        let reader = IBKRActivityReader()
        for name in ["ibkr-activity-example.csv", "ibkr-activity-2019-example.csv"] {
            let probe = try SourceInput(path: Self.sample(name)).probe
            #expect(reader.detect(probe) == .match, "\(name)")
        }
        let flex = try SourceInput(path: Self.sample("ibkr-trades-example.csv")).probe
        #expect(reader.detect(flex) != .match)
        let history = """
            Statement,Header,Field Name,Field Value
            Statement,Data,Title,Transaction History
            Summary,Header,Field Name,Field Value
            Transaction History,Header,Date,Account,Description,Transaction Type,Symbol,Quantity,Price,Gross Amount ,Commission,Net Amount

            """
        #expect(!TestKit.detects(reader, history))
    }

    @Test("an option's symbol becomes its OCC code")
    func optionCode() {
        #expect(IBKRActivityStatement.occCode("TLRY 20AUG21 18.0 C") == "TLRY210820C00018000")
        #expect(IBKRActivityStatement.occCode("EOAN 20AUG21 10.2 P") == "EOAN210820P00010200")
        #expect(IBKRActivityStatement.occCode("TSTA") == nil)
    }
}
