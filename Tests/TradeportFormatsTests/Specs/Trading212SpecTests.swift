import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The trading212 format (formats/trading212.yaml) over its own sample
/// (formats/samples/trading212-example.csv): a header row, then 7 lines (2-8); the dividend line
/// gives the dividend that reached the account, in the account's currency.
@Suite struct Trading212SpecTests {
    static let sample = BuiltInSample.path("trading212-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("trading212", sample) }

    static func fees(_ t: Trade) -> [String] { t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } }

    // Counts read from the raw sample: 7 lines, 7 operations. Trades 3, 4, 5.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "trading212")
        #expect(s.rows == 7)
        #expect(s.operations == 7)
        #expect(s.extra == 0)
        #expect(s.skipped == 0)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.merged == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.isEmpty)
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        #expect(doc.allTrades.count == 3)
        #expect(doc.allTransactions.count == 4)
        #expect(doc.portfolios.flatMap(\.movements).count == 0)
        #expect(doc.allTrades.map(\.source.row).sorted() == [3, 4, 5])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 6, 7, 8])
    }

    // Values read from the sample's raw line 2: a Deposit of 200.00 EUR, its ID and Notes.
    @Test func deposit() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(t.id == "trading212:5e2a7c19-3b8d-4f0e-a6d1-92c4b7e8f013")
        #expect(t.externalId == "5e2a7c19-3b8d-4f0e-a6d1-92c4b7e8f013")
        #expect(t.time.description == "2024-02-01T09:15:22.481Z")
        #expect(t.type == .deposit)
        #expect(t.asset.text == "EUR")
        #expect(t.amount.description == "200")
        #expect(t.security == nil)
        #expect(t.note == "Transaction ID: QX7RT2LMNB84KD1Z")
    }

    // Values read from the sample's raw line 3: Market buy of 0.5 AAPL, Total 87.69 EUR including
    // a currency conversion fee of 0.13 EUR: amount 87.56, price 87.56 / 0.5 = 175.12.
    @Test func buyWithAConversionFee() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(t.externalId == "EOF8123456701")
        #expect(t.time.description == "2024-02-01T14:30:05.227Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "AAPL")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.5")
        #expect(t.price.description == "175.12")
        #expect(t.amount?.description == "87.56")
        #expect(Self.fees(t) == ["0.13 EUR broker"])
        #expect(t.isin == "US0378331005")
        #expect(t.name == "Apple")
    }

    // Values read from the sample's raw lines 4 and 5: a buy and a Limit sell of SAP without a fee.
    @Test func buyAndSellWithoutFees() throws {
        let doc = try Self.convert()
        let buy = try #require(doc.allTrades.first { $0.source.row == 4 })
        #expect(buy.externalId == "EOF8123456702")
        #expect(buy.time.description == "2024-02-02T09:01:12.904Z")
        #expect(buy.side == .buy)
        #expect(buy.base.text == "SAP" && buy.quote.text == "EUR")
        #expect(buy.quantity.description == "0.3")
        #expect(buy.price.description == "170.2")
        #expect(buy.amount?.description == "51.06")
        #expect(buy.fees.isEmpty)
        let sell = try #require(doc.allTrades.first { $0.source.row == 5 })
        #expect(sell.externalId == "EOF8123456703")
        #expect(sell.time.description == "2024-03-15T10:22:41.017Z")
        #expect(sell.side == .sell)
        #expect(sell.base.text == "SAP" && sell.quote.text == "EUR")
        #expect(sell.quantity.description == "0.1")
        #expect(sell.price.description == "178.4")
        #expect(sell.amount?.description == "17.84")
        #expect(sell.isin == "DE0007164600")
    }

    // Issue 43, point 6. Values read from the sample's raw line 6: Total 0.10 in Currency (Total) EUR
    // is what reached the account (0.5 shares × 0.25 USD = 0.125 USD gross, 0.02 USD withheld,
    // 0.105 USD ≈ 0.10 EUR); the tax withheld, in the share's currency, never touched the account and
    // is said in the note. The line has no ID.
    @Test func theDividendThatReachedTheAccount() throws {
        let doc = try Self.convert()
        let fromRow = doc.allTransactions.filter { $0.source.row == 6 }
        #expect(fromRow.count == 1)
        let dividend = try #require(fromRow.first)
        #expect(dividend.type == .dividend)
        #expect(dividend.externalId == nil)
        #expect(dividend.time.description == "2024-05-16T11:04:37Z")
        #expect(dividend.asset.text == "EUR")
        #expect(dividend.amount.description == "0.1")
        #expect(dividend.security == "AAPL")
        #expect(dividend.note == "0.25 USD a share; withholding tax 0.02 USD withheld at source")
        // Only EUR moves: no USD balance the account never held.
        #expect(doc.warnings.filter { $0.code == "negative-balance" }.isEmpty, "\(doc.warnings)")
    }

    // Values read from the sample's raw lines 7 and 8: interest on cash (a time with two fraction
    // digits) and a Withdrawal of -60.00 EUR.
    @Test func interestAndWithdrawal() throws {
        let doc = try Self.convert()
        let interest = try #require(doc.allTransactions.first { $0.source.row == 7 })
        #expect(interest.externalId == "a41f0c7e-9d25-4b1a-8e3f-6c2d0b9a7e51")
        #expect(interest.time.description == "2024-05-31T22:05:10.14Z")
        #expect(interest.type == .interest)
        #expect(interest.asset.text == "EUR")
        #expect(interest.amount.description == "0.27")
        #expect(interest.note == "Interest on cash")
        let withdrawal = try #require(doc.allTransactions.first { $0.source.row == 8 })
        #expect(withdrawal.externalId == "7d3b9e21-0c4f-4a8d-b6e2-1f5a8c9d0e74")
        #expect(withdrawal.time.description == "2024-06-03T08:40:55.31Z")
        #expect(withdrawal.type == .withdrawal)
        #expect(withdrawal.asset.text == "EUR")
        #expect(withdrawal.amount.description == "60")
        #expect(withdrawal.note == "Sent to Bank Account ****1234")
    }

    // Issue 43, point 7. A row of the 2025 export (Notes and ID after Name) under the 2023 header
    // (the pattern of the real export's rows 11-14) is read by the 2025 order (layouts:), told by
    // the EOF id in its 7th cell: a 4:1 reverse split's close and open.
    @Test func aRowOfThe2025OrderUnderAnOlderHeader() throws {
        let header = try String(contentsOfFile: Self.sample, encoding: .utf8).split(separator: "\n")[0]
        let reader = try #require(FormatRegistry.builtIn.reader(id: "trading212"))
        let doc = try TestKit.convert(
            header + "\n"
                + "Stock split close,2025-03-24 07:24:24.095,CA46500E8678,ISOU,\"IsoEnergy\",,EOF29950772850,29.8047800000,2.070473,USD,1.03401461,0.00,\"EUR\",59.68,\"EUR\",,,,\n"
                + "Stock split open,2025-03-24 07:24:24.104,CA46500E8678,ISOU,\"IsoEnergy\",,EOF29950772853,7.4511950000,8.281893,USD,1.03401474,,\"EUR\",59.68,\"EUR\",,,,\n",
            with: reader)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        let movements = doc.portfolios.flatMap(\.movements)
        #expect(
            movements.map { "\($0.direction.rawValue) \($0.quantity) \($0.asset) \($0.reason.rawValue) \($0.externalId ?? "-")" } == [
                "out 29.80478 ISOU split EOF29950772850", "in 7.451195 ISOU split EOF29950772853"
            ])
    }
}
