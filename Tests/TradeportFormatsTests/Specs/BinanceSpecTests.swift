import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The binance format (formats/binance.yaml) over its own sample
/// (formats/samples/binance-example.csv): a header row, then 13 lines (2-14); a trade's fills,
/// spends and fees are lines of one second and account (`group:`).
@Suite struct BinanceSpecTests {
    static let sample = BuiltInSample.path("binance-example.csv")

    static func convert() throws -> CanonicalDocument { try BuiltInSample.convert("binance", sample) }

    static func fees(_ t: Trade) -> [String] { t.fees.map { "\($0.amount) \($0.currency) \($0.kind.rawValue)" } }

    // Counts read from the raw sample: 13 lines. Lines 3-5 (2023-03-04 11:20:45, Spot: Buy, Buy,
    // Fee) are one trade, 2 merged; lines 6-10 (2023-04-11 16:02:31, Spot: two spends, two buys, a
    // fee) one trade, 4 merged; lines 2, 11, 12, 13 are transactions, line 14 a movement.
    // 13 rows = 7 operations + 6 merged.
    @Test func accountsForEveryRow() throws {
        let doc = try Self.convert()
        #expect(doc.sources.count == 1)
        let s = try #require(doc.sources.first)
        #expect(s.format == "binance")
        #expect(s.rows == 13)
        #expect(s.operations == 7)
        #expect(s.merged == 6)
        #expect(s.skipped == 0)
        #expect(s.rejected == 0)
        #expect(s.duplicates == 0)
        #expect(s.extra == 0)
        #expect(s.addsUp)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.skipped.isEmpty)
    }

    @Test func operationsByKind() throws {
        let doc = try Self.convert()
        let movements = doc.portfolios.flatMap(\.movements)
        #expect(doc.allTrades.count == 2)
        #expect(doc.allTransactions.count == 4)
        #expect(movements.count == 1)
        #expect(doc.allTrades.map(\.source.row).sorted() == [3, 6])
        #expect(doc.allTransactions.map(\.source.row).sorted() == [2, 11, 12, 13])
        #expect(movements.map(\.source.row) == [14])
    }

    // Values read from the sample's raw lines 3-5: Buy EUR -180.5, Buy ETH +0.1, Fee ETH -0.0001.
    // EUR ranks before ETH in `quotes`: a buy of 0.1 ETH for 180.5 EUR at 1805, the fee in ETH.
    @Test func firstTradeWithAFeeRow() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 3 })
        #expect(t.externalId == nil)
        #expect(t.time.description == "2023-03-04T11:20:45Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "ETH")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "0.1")
        #expect(t.price.description == "1805")
        #expect(t.amount?.description == "180.5")
        #expect(Self.fees(t) == ["0.0001 ETH exchange"])
        #expect(t.account == "Spot")
        #expect(t.venue == "Binance")
    }

    // Values read from the sample's raw lines 6-10: SOL in twice (2.5 + 1 = 3.5), EUR out twice
    // (120 + 48 = 168), a fee of 0.0035 SOL: one buy of 3.5 SOL for 168 EUR at 48.
    @Test func fillsOfOneOrderAreSummed() throws {
        let doc = try Self.convert()
        let t = try #require(doc.allTrades.first { $0.source.row == 6 })
        #expect(t.time.description == "2023-04-11T16:02:31Z")
        #expect(t.side == .buy)
        #expect(t.base.text == "SOL")
        #expect(t.quote.text == "EUR")
        #expect(t.quantity.description == "3.5")
        #expect(t.price.description == "48")
        #expect(t.amount?.description == "168")
        #expect(Self.fees(t) == ["0.0035 SOL exchange"])
        #expect(t.account == "Spot")
    }

    // Values read from the sample's raw lines 2 and 11: a deposit (empty Remark: no note) and a
    // withdrawal whose Remark is its note.
    @Test func depositAndWithdrawal() throws {
        let doc = try Self.convert()
        let deposit = try #require(doc.allTransactions.first { $0.source.row == 2 })
        #expect(deposit.time.description == "2023-03-02T09:14:07Z")
        #expect(deposit.type == .deposit)
        #expect(deposit.asset.text == "EUR")
        #expect(deposit.amount.description == "500")
        #expect(deposit.account == "Spot")
        #expect(deposit.note == nil)
        let withdrawal = try #require(doc.allTransactions.first { $0.source.row == 11 })
        #expect(withdrawal.time.description == "2023-05-20T18:45:10Z")
        #expect(withdrawal.type == .withdrawal)
        #expect(withdrawal.asset.text == "ETH")
        #expect(withdrawal.amount.description == "0.05")
        #expect(withdrawal.note == "Withdraw fee is included")
    }

    // Values read from the sample's raw lines 12 and 13: Realized Profit and Loss, income or charge by its sign.
    @Test func futuresResultsBySign() throws {
        let doc = try Self.convert()
        let income = try #require(doc.allTransactions.first { $0.source.row == 12 })
        #expect(income.time.description == "2023-06-07T12:30:55Z")
        #expect(income.type == .otherIncome)
        #expect(income.asset.text == "USDT")
        #expect(income.amount.description == "12.34")
        #expect(income.account == "USD-MFutures")
        let charge = try #require(doc.allTransactions.first { $0.source.row == 13 })
        #expect(charge.time.description == "2023-06-07T14:05:19Z")
        #expect(charge.type == .otherCharge)
        #expect(charge.asset.text == "USDT")
        #expect(charge.amount.description == "4.56")
    }

    // Values read from the sample's raw line 14: Simple Earn Flexible Subscription, SOL -3.
    @Test func earnSubscriptionIsAMovementOut() throws {
        let doc = try Self.convert()
        let m = try #require(doc.portfolios.flatMap(\.movements).first { $0.source.row == 14 })
        #expect(m.time.description == "2023-06-09T07:40:00Z")
        #expect(m.direction == .out)
        #expect(m.asset.text == "SOL")
        #expect(m.quantity.description == "3")
        #expect(m.reason == .transfer)
        #expect(m.account == "Spot")
        #expect(m.note == "Simple Earn Flexible Subscription")
    }

    // Issue 43, point 10. One second of three EUR spends, two ETH buys and a BTC buy, with three
    // BNB fees, as Binance writes them (the pattern of the real history's rows 186-194): the pairs
    // are those whose ETH fills agree in price, and each fee goes with the spend it is in
    // proportion to; file order would have paired ETH with 6.6466386 EUR (4431.09 a coin).
    @Test func legsOfOneSecondPairByPriceAndFeesByProportion() throws {
        let reader = try #require(FormatRegistry.builtIn.reader(id: "binance"))
        let doc = try TestKit.convert(
            """
            User_ID,UTC_Time,Account,Operation,Coin,Change,Remark
            1,2025-10-29 18:36:00,Spot,Transaction Spend,EUR,-6.64663860,
            1,2025-10-29 18:36:00,Spot,Transaction Buy,ETH,0.00150000,
            1,2025-10-29 18:36:00,Spot,Transaction Spend,EUR,-5.03829000,
            1,2025-10-29 18:36:00,Spot,Transaction Fee,BNB,-0.00000404,
            1,2025-10-29 18:36:00,Spot,Transaction Buy,BTC,0.00007000,
            1,2025-10-29 18:36:00,Spot,Transaction Fee,BNB,-0.00000526,
            1,2025-10-29 18:36:00,Spot,Transaction Buy,ETH,0.00150000,
            1,2025-10-29 18:36:00,Spot,Transaction Fee,BNB,-0.00000404,
            1,2025-10-29 18:36:00,Spot,Transaction Spend,EUR,-5.03209500,

            """, with: reader)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        let trades = doc.allTrades.map {
            "\($0.quantity) \($0.base) @\($0.price) =\($0.amount!) \($0.quote) fee \($0.fees.map { "\($0.amount) \($0.currency)" })"
        }.sorted()
        #expect(
            trades == [
                "0.00007 BTC @94951.98 =6.6466386 EUR fee [\"0.00000526 BNB\"]",
                "0.0015 ETH @3354.73 =5.032095 EUR fee [\"0.00000404 BNB\"]",
                "0.0015 ETH @3358.86 =5.03829 EUR fee [\"0.00000404 BNB\"]"
            ])
    }
}
