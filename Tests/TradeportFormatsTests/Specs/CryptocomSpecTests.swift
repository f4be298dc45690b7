import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The cryptocom format (formats/cryptocom.yaml) over its own sample
/// (formats/samples/cryptocom-example.csv): a UTF-8 BOM and a header row, then 12 lines (2-13)
/// whose Transaction Kind decides what each is.
@Suite struct CryptocomSpecTests {
    static let sample = BuiltInSample.path("cryptocom-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("cryptocom", sample) }

    // Counts read from the raw sample: 12 lines; skipped are line 5 (crypto_earn_program_created)
    // and line 11 (…purchase_lock); trades lines 2, 3, 4, 12; transactions 6, 7, 8, 13; movements 9, 10.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "cryptocom")
        #expect(s.rows == 12)
        #expect(s.operations == 10)
        #expect(s.skipped == 2)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.merged == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.map(\.source.row).sorted() == [5, 11])
        let earn = try #require(doc.skipped.first { $0.source.row == 5 })
        #expect(earn.reason.contains("Crypto Earn"))
        let lock = try #require(doc.skipped.first { $0.source.row == 11 })
        #expect(lock.reason.contains("limit order"))
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        let movements = doc.portfolios.flatMap(\.movements)
        #expect(doc.allTrades.count == 4)
        #expect(doc.allTransactions.count == 4)
        #expect(movements.count == 2)
        #expect(doc.allTrades.map(\.source.row).sorted() == [2, 3, 4, 12])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [6, 7, 8, 13])
        #expect(movements.map(\.source.row).sorted() == [9, 10])
    }

    // Values read from the sample's raw line 2: crypto_purchase (card) of 0.25 ETH, paid with the
    // Native Amount 398.5 EUR (no To Amount): price 398.5 / 0.25 = 1594.
    @Test func cardPurchaseIsABuy() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 2 })
        #expect(t.externalId == nil)
        #expect(t.time.description == "2023-03-02T08:15:40Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "ETH")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.25")
        #expect(t.price.description == "1594")
        #expect(t.amount?.description == "398.5")
        #expect(t.fees.isEmpty)
        #expect(t.venue == "Crypto.com")
    }

    // Values read from the sample's raw line 3: viban_purchase EUR -150.0 -> 0.0071 BTC reads as a
    // sale of 150 EUR for 0.0071 BTC; price 0.0071 / 150 rounded to 12 digits = 0.000047333333.
    @Test func fiatToCryptoIsASaleOfTheFiat() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(t.time.description == "2023-03-04T19:02:11Z")
        #expect(t.side == .sell)
        #expect(t.base.text == "EUR")
        #expect(t.quote.text == "BTC")
        #expect(t.quantity.description == "150")
        #expect(t.price.description == "0.000047333333")
        #expect(t.amount?.description == "0.0071")
    }

    // Values read from the sample's raw lines 4 and 12: crypto_exchange ETH -0.05 -> 1175.3 CRO
    // (price 23506); a limit order's purchase_commit USD -20.0 -> 0.9 SOL (price 0.045).
    @Test func exchangeAndLimitOrderCommit() throws {
        let doc = try Self.convert()
        let exchange = try #require(doc.allTrades.first { $0.source.row == 4 })
        #expect(exchange.time.description == "2023-03-10T12:40:05Z")
        #expect(exchange.side == .sell)
        #expect(exchange.base.text == "ETH" && exchange.quote.text == "CRO")
        #expect(exchange.quantity.description == "0.05")
        #expect(exchange.price.description == "23506")
        #expect(exchange.amount?.description == "1175.3")
        let commit = try #require(doc.allTrades.first { $0.source.row == 12 })
        #expect(commit.time.description == "2023-04-16T02:17:09Z")
        #expect(commit.side == .sell)
        #expect(commit.base.text == "USD" && commit.quote.text == "SOL")
        #expect(commit.quantity.description == "20")
        #expect(commit.price.description == "0.045")
        #expect(commit.amount?.description == "0.9")
    }

    // Values read from the sample's raw lines 6, 7, 8, 13: interest, a cashback (other-income), its
    // reversal (other-charge, by the sign), a withdrawal; the Transaction Description is the note.
    @Test func transactions() throws {
        let doc = try Self.convert()
        let interest = try #require(doc.allTransactions.first { $0.source.row == 6 })
        #expect(interest.time.description == "2023-03-18T04:31:56Z")
        #expect(interest.type == .interest)
        #expect(interest.asset.text == "ETH")
        #expect(interest.amount.description == "0.00004821")
        #expect(interest.note == "Crypto Earn")
        let cashback = try #require(doc.allTransactions.first { $0.source.row == 7 })
        #expect(cashback.type == .otherIncome)
        #expect(cashback.asset.text == "CRO")
        #expect(cashback.amount.description == "3.4127")
        #expect(cashback.note == "Card Cashback")
        let reverted = try #require(doc.allTransactions.first { $0.source.row == 8 })
        #expect(reverted.time.description == "2023-03-21T07:45:10Z")
        #expect(reverted.type == .otherCharge)
        #expect(reverted.asset.text == "CRO")
        #expect(reverted.amount.description == "1.2")
        #expect(reverted.note == "Card Cashback Reversal")
        let withdrawal = try #require(doc.allTransactions.first { $0.source.row == 13 })
        #expect(withdrawal.time.description == "2023-04-20T21:30:00Z")
        #expect(withdrawal.type == .withdrawal)
        #expect(withdrawal.asset.text == "BTC")
        #expect(withdrawal.amount.description == "0.005")
        #expect(withdrawal.note == "Withdraw BTC")
    }

    // Values read from the sample's raw lines 9 and 10: a dust conversion, CRO in and DOT out.
    @Test func dustConversionIsTwoMovements() throws {
        let doc = try Self.convert()
        let movements = doc.portfolios.flatMap(\.movements)
        let credited = try #require(movements.first { $0.source.row == 9 })
        #expect(credited.time.description == "2023-04-02T10:10:10Z")
        #expect(credited.direction == .in)
        #expect(credited.asset.text == "CRO")
        #expect(credited.quantity.description == "12.90417729")
        #expect(credited.reason == .conversion)
        let debited = try #require(movements.first { $0.source.row == 10 })
        #expect(debited.time.description == "2023-04-02T10:10:10Z")
        #expect(debited.direction == .out)
        #expect(debited.asset.text == "DOT")
        #expect(debited.quantity.description == "0.1382")
        #expect(debited.reason == .conversion)
    }
}
