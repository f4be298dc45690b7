import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The degiro format (formats/degiro.yaml) over its own sample
/// (formats/samples/degiro-example.csv): a Dutch header row, then 19 lines (2-20), newest first,
/// with decimal commas, dates and times in Europe/Amsterdam, a currency exchange over two lines
/// (`group:`), a long Order Id wrapped onto a line of its own, two cash sweeps (a Degiro Cash Sweep
/// Transfer and its Overboeking, van and naar) and a price the description quotes finer than the
/// amount. Its Saldo column runs unbroken from 0 (the last line) to the first line's balances.
@Suite struct DegiroSpecTests {
    static let sample = BuiltInSample.path("degiro-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("degiro", sample) }

    // Counts read from the raw sample: 19 lines. Skipped: line 9 (empty Datum: the wrapped rest of
    // line 8's Order Id). Lines 6+7 (Valuta Creditering / Debitering, 05-10-2023 15:42) are one
    // currency exchange, line 7 merged. Trades: lines 5, 6, 10, 14, 19; transactions: 2, 3, 4, 8,
    // 11, 12, 13, 15, 16, 17, 18, 20. 19 rows = 17 operations + 1 merged + 1 skipped.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "degiro")
        #expect(s.rows == 19)
        #expect(s.operations == 17)
        #expect(s.merged == 1)
        #expect(s.skipped == 1)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.map(\.source.row) == [9])
        let wrapped = try #require(doc.skipped.first { $0.source.row == 9 })
        #expect(wrapped.reason.contains("Order Id"))
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        #expect(doc.allTrades.count == 5)
        #expect(doc.allTransactions.count == 12)
        #expect(doc.portfolios.flatMap(\.movements).count == 0)
        #expect(doc.allTrades.map(\.source.row).sorted() == [5, 6, 10, 14, 19])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 3, 4, 8, 11, 12, 13, 15, 16, 17, 18, 20])
        #expect(doc.allTransactions.filter { $0.type == .fee }.map(\.source.row).sorted() == [4, 8, 13, 18])
    }

    // Issue 43, point 1. A Degiro Cash Sweep Transfer and the Overboeking row of its minute net to
    // zero: line 12 +150,00 and line 11 "Overboeking van … 150,00 EUR" (the Saldo goes 753 → 903 →
    // 753); line 17 -0,92 and line 16 "Overboeking naar …: 0,92 EUR" (0,08 → 1,00). Every row's
    // EUR and USD, replayed from 0 on the last line, ends at the balances the newest line of each
    // currency prints (a reading of the raw file, not of the spec).
    @Test func cashSweepPairsNetToZeroAndTheSaldoReplays() throws {
        let doc = try Self.convert()
        func text(_ row: Int) -> String? {
            doc.allTransactions.first { $0.source.row == row }.map { "\($0.type.rawValue) \($0.amount) \($0.asset)" }
        }
        #expect(text(11) == "withdrawal 150 EUR" && text(12) == "deposit 150 EUR")
        #expect(text(16) == "deposit 0.92 EUR" && text(17) == "withdrawal 0.92 EUR")
        var replayed: [String: ExactDecimal] = [:]
        func add(_ asset: String, _ d: ExactDecimal) { replayed[asset] = (replayed[asset] ?? ExactDecimal(0)).adding(d)! }
        for t in doc.allTransactions {
            let inward: Set<CashTransactionType> = [.deposit, .dividend, .interest, .otherIncome, .feeRefund, .taxRefund, .coupon, .redemption]
            add(t.asset.text, inward.contains(t.type) ? t.amount : t.amount.negated)
        }
        for t in doc.allTrades {
            let value = t.amount ?? t.quantity.multiplied(by: t.price)!
            add(t.quote.text, t.side == .buy ? value.negated : value)
            if ["EUR", "USD"].contains(t.base.text) { add(t.base.text, t.side == .buy ? t.quantity : t.quantity.negated) }
            for f in t.fees { add(f.currency.text, f.amount.negated) }
        }
        // The newest Saldo of each currency, from the raw lines (field 10 the currency, 11 the amount).
        var printed: [String: String] = [:]
        for line in try String(contentsOfFile: Self.sample, encoding: .utf8).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            // Quoted decimal commas split a field in two: the Saldo's currency is the field before
            // the last quoted number; read it from the end.
            guard fields.count >= 4, !fields[0].isEmpty else { continue }
            let tail = fields.suffix(4)
            let currency = tail.first!
            let amount = tail.dropFirst().prefix(2).joined(separator: ".").replacingOccurrences(of: "\"", with: "")
            if printed[currency] == nil { printed[currency] = amount }
        }
        #expect(printed == ["USD": "1.27", "EUR": "396.20"])
        #expect(replayed["EUR"]?.description == "396.2" && replayed["USD"]?.description == "1.27", "\(replayed)")
    }

    // Issue 43, point 2. Line 19 "Koop 1 @ 82,055 EUR" moved "-82,06": the price is the one quoted,
    // 82.055, and the amount the money moved.
    @Test func thePriceIsTheOneQuoted() throws {
        let t = try #require(try Self.convert().allTrades.first { $0.source.row == 19 })
        #expect(t.price.description == "82.055" && t.amount?.description == "82.06" && t.quantity.description == "1")
        #expect(t.base.text == "NL0009272749" && t.fees.isEmpty)
    }

    // Values read from the sample's raw lines 2 and 3: a dividend of "1,50" USD and its
    // Dividendbelasting "-0,23"; 16-11-2023 07:31 in Amsterdam is CET (UTC+1).
    @Test func dividendAndItsWithholdingTax() throws {
        let doc = try Self.convert()
        let dividend = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(dividend.externalId == nil)
        #expect(dividend.time.description == "2023-11-16T06:31:00Z")
        #expect(dividend.type == .dividend)
        #expect(dividend.asset.text == "USD")
        #expect(dividend.amount.description == "1.5")
        #expect(dividend.security == "US5949181045")
        #expect(dividend.note == "Dividend")
        let tax = try #require(doc.allTransactions.first { $0.source.row == 3 })
        #expect(tax.time.description == "2023-11-16T06:31:00Z")
        #expect(tax.type == .tax)
        #expect(tax.asset.text == "USD")
        #expect(tax.amount.description == "0.23")
        #expect(tax.security == "US5949181045")
        #expect(tax.note == "Dividendbelasting")
    }

    // Values read from the sample's raw line 5: "Verkoop 3 @ 84,12 EUR", Mutatie EUR "252,36";
    // 12-10-2023 10:07 in Amsterdam is CEST (UTC+2); price 252.36 / 3 = 84.12.
    @Test func sellFromTheDescription() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 5 })
        #expect(t.externalId == nil)
        #expect(t.time.description == "2023-10-12T08:07:00Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "IE00B4L5Y983")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "3")
        #expect(t.price.description == "84.12")
        #expect(t.amount?.description == "252.36")
        #expect(t.fees.isEmpty)
        #expect(t.isin == "IE00B4L5Y983")
        #expect(t.name == "ISHARES CORE MSCI WORLD UCITS ETF")
        #expect(t.settlementDate?.description == "2023-10-12")
        #expect(t.orderId == "a7c41e09-5b3d-4f82-9e6a-20d8b7f35c91")
        #expect(t.venue == "DEGIRO")
    }

    // Values read from the sample's raw lines 6 and 7: Valuta Creditering USD "637,20" and Valuta
    // Debitering EUR "-606,16". EUR ranks before USD in `quotes`: a buy of 637.2 USD for 606.16 EUR,
    // price 606.16 / 637.2 rounded to 12 digits (the group's default) = 0.9512868801; the other
    // fields from line 6, the group's first.
    @Test func currencyExchangeOverTwoLines() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 6 })
        #expect(t.time.description == "2023-10-05T13:42:00Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "USD")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "637.2")
        #expect(t.price.description == "0.9512868801")
        #expect(t.amount?.description == "606.16")
        #expect(t.fees.isEmpty)
        #expect(t.settlementDate?.description == "2023-10-05")
        #expect(t.orderId == "3f8a2c6e-91d4-4b7a-8e05-c1d92f6ab347")
        #expect(t.venue == "DEGIRO")
    }

    // Values read from the sample's raw lines 10 and 8: "Koop 2 @ 318,6 USD" for "-637,20" USD, and
    // its transaction fee "-2,00" EUR at the same minute.
    @Test func buyAndItsFee() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 10 })
        #expect(t.time.description == "2023-10-05T13:42:00Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "US5949181045")
        #expect(t.quote.text == "USD")
        #expect(t.quantity.description == "2")
        #expect(t.price.description == "318.6")
        #expect(t.amount?.description == "637.2")
        #expect(t.name == "MICROSOFT CORPORATION")
        #expect(t.orderId == "3f8a2c6e-91d4-4b7a-8e05-c1d92f6ab347")
        let fee = try #require(doc.allTransactions.first { $0.source.row == 8 })
        #expect(fee.time.description == "2023-10-05T13:42:00Z")
        #expect(fee.type == .fee)
        #expect(fee.asset.text == "EUR")
        #expect(fee.amount.description == "2")
        #expect(fee.security == "US5949181045")
        #expect(fee.note == "DEGIRO Transactiekosten en/of kosten van derden")
    }

    // Values read from the sample's raw lines 12, 14 and 15: the Cash Sweep Transfer "150,00" (a
    // deposit by its sign), "Koop 5 @ 79,4 EUR" for "-397,00", an iDEAL Deposit "1150,00".
    @Test func depositsAndAnotherBuy() throws {
        let doc = try Self.convert()
        let sweep = try #require(doc.allTransactions.first { $0.source.row == 12 })
        #expect(sweep.time.description == "2023-10-05T07:02:00Z")
        #expect(sweep.type == .deposit)
        #expect(sweep.asset.text == "EUR")
        #expect(sweep.amount.description == "150")
        #expect(sweep.note == "Degiro Cash Sweep Transfer")
        let buy = try #require(doc.allTrades.first { $0.source.row == 14 })
        #expect(buy.time.description == "2023-10-03T09:26:00Z")
        #expect(buy.side == .buy)
        #expect(buy.base.text == "IE00B4L5Y983" && buy.quote.text == "EUR")
        #expect(buy.quantity.description == "5")
        #expect(buy.price.description == "79.4")
        #expect(buy.amount?.description == "397")
        let ideal = try #require(doc.allTransactions.first { $0.source.row == 15 })
        #expect(ideal.time.description == "2023-10-02T18:14:00Z")
        #expect(ideal.type == .deposit)
        #expect(ideal.asset.text == "EUR")
        #expect(ideal.amount.description == "1150")
        #expect(ideal.security == nil)
        #expect(ideal.note == "iDEAL Deposit")
    }

    // The Spanish half of a sweep (seen in a Spanish export: "Transferir a su Cuenta de Efectivo en
    // flatexDEGIRO Bank: <amount> EUR"), beside its Degiro Cash Sweep Transfer: money in, net zero.
    // (Under the Dutch header: the Spanish header is the broker-families issue's.)
    @Test func aSpanishSweepHalf() throws {
        let reader = try #require(FormatRegistry.builtIn.reader(id: "degiro"))
        let doc = try TestKit.convert(
            """
            Datum,Tijd,Valutadatum,Product,ISIN,Omschrijving,FX,Mutatie,,Saldo,,Order Id
            02-02-2024,10:00,02-02-2024,,,"Transferir a su Cuenta de Efectivo en flatexDEGIRO Bank: 3,10 EUR",,,,EUR,"5,00",
            02-02-2024,10:00,02-02-2024,FLATEX EURO BANKACCOUNT,NLFLATEXACNT,Degiro Cash Sweep Transfer,,EUR,"-3,10",EUR,"1,90",

            """, with: reader)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTransactions.map { "\($0.type.rawValue) \($0.amount)" } == ["deposit 3.1", "withdrawal 3.1"])
    }

    // Issue 43, item 2. The Saldo column is the running balance the reading is checked against
    // (balance:): the sample's rows, replayed newest first to oldest, agree with every Saldo, and
    // the document says so per currency.
    @Test func theSaldoIsCheckedRowByRow() throws {
        let doc = try Self.convert()
        #expect(doc.reconciliation.map { "\($0.asset) \($0.reconciles)" }.sorted() == ["EUR true", "USD true"])
        #expect(doc.warnings.filter { $0.code.hasPrefix("unreconciled") }.isEmpty, "\(doc.warnings)")
        // One amount read wrong (line 13's fee of 1,00 made 1,50 here): the Saldo says where.
        let text = try String(contentsOfFile: Self.sample, encoding: .utf8)
        let line13 = "03-10-2023,11:26,03-10-2023,ISHARES CORE MSCI WORLD UCITS ETF,IE00B4L5Y983,DEGIRO Transactiekosten en/of kosten van derden,,EUR,\"-1,00\""
        #expect(text.contains(line13))
        let reader = try #require(FormatRegistry.builtIn.reader(id: "degiro"))
        let wrong = try TestKit.convert(text.replacingOccurrences(of: line13, with: line13.replacingOccurrences(of: "-1,00", with: "-1,50")), with: reader)
        let warnings = wrong.warnings.filter { $0.code == "unreconciled-balance" }
        #expect(warnings.map(\.source?.row) == [13], "\(warnings)")
        #expect(warnings.first?.message.contains("EUR: the balance row 13 prints, 753, is not what the operations read give, 752.5") == true, "\(warnings)")
        #expect(wrong.reconciliation.first { $0.asset == "EUR" }?.reconciles == false)
    }

    // Issue 43, point 3. A currency exchange whose first row's Order Id wraps onto a line of its own
    // (the real export's rows 18-19): the line's text is joined to the id, and the exchange carries
    // the whole id; the line itself is skipped, saying so.
    @Test func aWrappedOrderIdIsJoined() throws {
        let reader = try #require(FormatRegistry.builtIn.reader(id: "degiro"))
        let doc = try TestKit.convert(
            """
            Datum,Tijd,Valutadatum,Product,ISIN,Omschrijving,FX,Mutatie,,Saldo,,Order Id
            15-12-2022,16:55,15-12-2022,VICI PROPERTIES INC. C,US9256521090,Valuta Creditering,"1,0624",USD,"33,90",USD,"0,00",5925d76b-eb36-46e3-
            ,,,,,,,,,,,b017-a61a6d03c3e7
            15-12-2022,16:55,15-12-2022,VICI PROPERTIES INC. C,US9256521090,Valuta Debitering,,EUR,"-31,91",EUR,"0,07",5925d76b-eb36-46e3-b017-a61a6d03c3e7

            """, with: reader)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTrades.map(\.orderId) == ["5925d76b-eb36-46e3-b017-a61a6d03c3e7"])
        #expect(doc.skipped.map(\.source.row) == [3] && doc.skipped.first?.reason.contains("joined to it") == true)
        #expect(doc.sources.first?.addsUp == true)
    }
}
