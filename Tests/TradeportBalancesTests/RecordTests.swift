import Testing
import TradeportCore

@testable import TradeportBalances

@Suite("The server's records")
struct RecordTests {
    @Test func dateTimesWithAndWithoutSeconds() {
        #expect(ServerDateTime("2019-11-25T08:08:44")?.textWithSeconds == "2019-11-25T08:08:44")
        #expect(ServerDateTime("2019-11-25T08:08")?.textWithSeconds == "2019-11-25T08:08:00")
        #expect(ServerDateTime("2019-11-25T08:08:00")?.description == "2019-11-25T08:08")
        #expect(ServerDateTime("2019-11-25T08:08:44.000")?.textWithSeconds == "2019-11-25T08:08:44")
        #expect(ServerDateTime("2019-11-25T08:08:44.5") == nil)
        #expect(ServerDateTime("2019-02-30T08:08") == nil)
        #expect(ServerDateTime("2019-11-25 08:08") == nil)
        let t = Timestamp(rfc3339: "2019-11-25T08:08:44Z")!
        #expect(ServerDateTime(utc: t).utcTimestamp == t)
    }

    @Test func aTradeReadsBothDateFormsAndLowerCasesCodes() throws {
        let json = try JSONValue.parse(
            #"""
            {"id": 1, "dateTime": "2019-11-25T08:08", "instrument": "EOS-btc", "tradeType": "Buy",
             "tradedQuantity": 1, "tradedQuantityCurrency": "EOS", "tradedPrice": 0.0003597,
             "tradedPriceCurrency": "btc", "commission": 0.0025, "commissionCurrency": "eos", "tradeValueId": "37605094"}
            """#)
        let t = try TradeRecord(json: json)
        #expect(t.instrument == "eos-btc" && t.tradedQuantityCurrency == "eos")
        #expect(t.tradedPrice.description == "0.0003597")
        #expect(t.dateTime.textWithSeconds == "2019-11-25T08:08:00")
        var w = JSONWriter()
        t.write(to: &w, secondsAlways: false)
        #expect(try TradeRecord(json: JSONValue.parse(w.bytes)) == t)
    }

    @Test func unknownEnumsAndBadInstrumentsAreNamed() throws {
        let base = #""dateTime": "2019-11-25T08:08:44", "tradedQuantity": 1, "tradedQuantityCurrency": "eos", "tradedPrice": 1, "tradedPriceCurrency": "btc""#
        #expect(throws: RecordError(.invalidValue, field: "tradeType", "expected Buy or Sell, found 'Hold'", text: "Hold")) {
            try TradeRecord(json: JSONValue.parse("{\(base), \"instrument\": \"eos-btc\", \"tradeType\": \"Hold\"}"))
        }
        #expect(throws: RecordError(.invalidValue, field: "instrument", "expected two codes joined by '-' (eos-btc), found 'eosbtc'", text: "eosbtc")) {
            try TradeRecord(json: JSONValue.parse("{\(base), \"instrument\": \"eosbtc\", \"tradeType\": \"Buy\"}"))
        }
        #expect(throws: RecordError(.invalidValue, field: "transactionStatus", "expected Complete, found 'Failed'", text: "Failed")) {
            try TransactionRecord(
                json: JSONValue.parse(
                    #"{"dateTime": "2019-11-25T08:08", "transactionType": "Deposit", "currency": "btc", "amount": 1, "transactionStatus": "Failed"}"#))
        }
    }

    @Test func mappingSumsFeesOfOneCurrencyAndRefusesMixedOnes() throws {
        let time = Timestamp(rfc3339: "2021-03-02T14:05:09Z")!
        let here = SourceLocation(path: "x.csv", row: 1)
        var trade = Trade(
            id: "x:1", externalId: "41000012", time: time, side: .buy, base: AssetCode("EURS")!, quote: AssetCode("USD")!,
            quantity: ExactDecimal(jsonNumber: "250")!, price: ExactDecimal(jsonNumber: "1.2034")!, amount: nil,
            fees: [
                TradeFee(amount: ExactDecimal(jsonNumber: "0.5")!, currency: AssetCode("EURS")!, kind: .exchange),
                TradeFee(amount: ExactDecimal(jsonNumber: "0.125")!, currency: AssetCode("EURS")!, kind: .broker)
            ],
            source: here)
        let r = try BalancesMapping.record(trade).get()
        #expect(r.instrument == "eurs-usd" && r.tradeType == .buy && r.commission?.description == "0.625" && r.commissionCurrency == "eurs")
        #expect(r.tradeValueId == "41000012" && r.dateTime.textWithSeconds == "2021-03-02T14:05:09")
        trade.fees.append(TradeFee(amount: ExactDecimal(1), currency: AssetCode("USD")!, kind: .other))
        #expect(throws: BalancesMapping.Refusal.self) { try BalancesMapping.record(trade).get() }
        trade.fees = []
        trade.externalId = nil
        let bare = try BalancesMapping.record(trade).get()
        #expect(bare.commission == .zero && bare.commissionCurrency == "usd" && bare.tradeValueId == "x:1")
    }

    @Test func mappingTurnsCashTypesIntoDirections() throws {
        let time = Timestamp(rfc3339: "2021-03-02T14:05:00Z")!
        let here = SourceLocation(path: "x.csv", row: 1)
        for type in CashTransactionType.allCases {
            let t = CashTransaction(id: "x:2", externalId: nil, time: time, type: type, asset: AssetCode("RUB")!, amount: ExactDecimal(5), source: here)
            let r = try #require(BalancesMapping.record(t)).get()
            #expect(r.transactionType == (type.isIncoming ? .deposit : .withdraw))
            #expect(r.transactionValueId == "x:2" && r.currency == "rub" && r.commission == .zero)
        }
        let failed = CashTransaction(externalId: "9", time: time, type: .deposit, asset: AssetCode("RUB")!, amount: .zero, status: .failed, source: here)
        #expect(BalancesMapping.record(failed) == nil)
        let otherFee = CashTransaction(
            externalId: "9", time: time, type: .withdrawal, asset: AssetCode("BTC")!, amount: ExactDecimal(1),
            fee: CashFee(amount: ExactDecimal(1), currency: AssetCode("USD")!), source: here)
        #expect(throws: BalancesMapping.Refusal.self) { try BalancesMapping.record(otherFee)?.get() }
    }

    @Test func aPortfolioMapsToRecordsRefusalsAndIncompleteTransactions() throws {
        let time = Timestamp(rfc3339: "2021-03-02T14:05:00Z")!
        let here = SourceLocation(path: "x.csv", row: 1)
        let good = Trade(
            id: "x:1", externalId: "1", time: time, side: .sell, base: AssetCode("BTC")!, quote: AssetCode("USD")!,
            quantity: ExactDecimal(1), price: ExactDecimal(2), amount: nil, fees: [], source: here)
        var mixed = good
        mixed.fees = [
            TradeFee(amount: ExactDecimal(1), currency: AssetCode("USD")!, kind: .other),
            TradeFee(amount: ExactDecimal(1), currency: AssetCode("BTC")!, kind: .other)
        ]
        let deposit = CashTransaction(externalId: "7", time: time, type: .deposit, asset: AssetCode("RUB")!, amount: ExactDecimal(5), source: here)
        let failed = CashTransaction(
            externalId: "8", time: time, type: .deposit, asset: AssetCode("RUB")!, amount: ExactDecimal(5), status: .failed, source: here)
        let otherFee = CashTransaction(
            externalId: "9", time: time, type: .withdrawal, asset: AssetCode("BTC")!, amount: ExactDecimal(1),
            fee: CashFee(amount: ExactDecimal(1), currency: AssetCode("USD")!), source: here)
        let records = BalancesMapping.records(of: Portfolio(name: "P", trades: [good, mixed], transactions: [deposit, failed, otherFee]))
        #expect(records.trades == [try BalancesMapping.record(good).get()])
        #expect(records.transactions == [try #require(BalancesMapping.record(deposit)).get()])
        #expect(records.refusals.count == 2 && records.refusals[0].operationId == mixed.id && records.refusals[1].operationId == otherFee.id)
        #expect(records.incomplete == 1)
    }

    /// The server's codes are letters and digits, its instrument two of them joined by `-`: a code
    /// with punctuation is refused by name, never sent changed (`BF-B` would read as BF and B).
    @Test func codesWithPunctuationAreRefusedNotChanged() {
        let trade = Trade(
            externalId: "7", time: Timestamp(secondsSinceEpoch: 0), side: .buy, base: AssetCode("BF-B")!, quote: AssetCode("USD")!,
            quantity: ExactDecimal(mantissa: 2, scale: 0)!, price: ExactDecimal(mantissa: 55, scale: 0)!, amount: nil,
            source: SourceLocation(path: "x.csv", row: 3))
        guard case .refused(let refusal) = BalancesMapping.map(.trade(trade)) else {
            Issue.record("a trade of BF-B was mapped")
            return
        }
        #expect(refusal.reason == "its asset code 'BF-B' has characters other than letters and digits, which the server's codes do not take")
        #expect(!TradeRecord.isInstrument("bf-b-usd") && TradeRecord.isInstrument("bfb-usd"))
    }
}
