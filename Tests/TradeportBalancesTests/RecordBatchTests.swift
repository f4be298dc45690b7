import Testing
import TradeportBalances
import TradeportCore

/// A batch read straight from its bytes is the batch the tree gives; what the straight reader does
/// not take, it leaves to the tree (nil), never reading it otherwise.
@Suite("Batches read without the tree")
struct RecordBatchTests {
    /// The records of `text` through the tree (nil when the text or an item does not read).
    func throughTree<R: OperationRecord>(_ text: String, _: R.Type) -> [R]? {
        guard case .array(let items)? = try? JSONValue.parse(text) else { return nil }
        return try? items.map { item throws(RecordError) in try R(json: item) }
    }

    func straight<R: OperationRecord>(_ text: String, _: R.Type) -> [R]? {
        R.records(inBatch: Array(text.utf8))
    }

    static let trade = #"""
        {"dateTime": "2019-11-25T08:08:44", "instrument": "EOS-btc", "tradeType": "Buy", "tradedQuantity": 1,
         "tradedQuantityCurrency": "EOS", "tradedPrice": 0.0003597, "tradedPriceCurrency": "btc",
         "commission": null, "commissionCurrency": null, "tradeValueId": "37605094"}
        """#

    @Test func whatTheClientWritesReadsAsTheTreeReadsIt() throws {
        // Trades and transactions as push writes them, with every optional member both ways.
        var trades: [TradeRecord] = []
        var transactions: [TransactionRecord] = []
        for i in 0..<50 {
            let t = ServerDateTime(utc: Timestamp(secondsSinceEpoch: 1_574_669_324 + Int64(i) * 3_601))
            trades.append(
                TradeRecord(
                    dateTime: t, instrument: "eos-btc", tradeType: i % 2 == 0 ? .buy : .sell,
                    tradedQuantity: ExactDecimal(mantissa: Int128(i) * 1_000_003 - 7, scale: i % 9)!, tradedQuantityCurrency: "eos",
                    tradedPrice: ExactDecimal(mantissa: 3597, scale: 7)!, tradedPriceCurrency: "btc",
                    commission: i % 3 == 0 ? nil : ExactDecimal(mantissa: -25, scale: 4)!, commissionCurrency: i % 3 == 0 ? nil : "eos",
                    tradeValueId: i % 5 == 0 ? nil : "id-\(i)-ÿ€"))
            transactions.append(
                TransactionRecord(
                    dateTime: t, transactionType: i % 2 == 0 ? .deposit : .withdraw, currency: "usdt",
                    amount: ExactDecimal(mantissa: Int128(i) * 99_999_999_999, scale: 2)!, commission: i % 4 == 0 ? nil : ExactDecimal(mantissa: 1, scale: 8)!,
                    transactionValueId: i % 7 == 0 ? nil : "\(i)"))
        }
        for secondsAlways in [true, false] {
            var w = JSONWriter()
            w.beginArray()
            for r in trades { r.write(to: &w, secondsAlways: secondsAlways) }
            w.endArray()
            let read = TradeRecord.records(inBatch: w.bytes)
            #expect(read == trades)
            var v = JSONWriter()
            v.beginArray()
            for r in transactions { r.write(to: &v, secondsAlways: secondsAlways) }
            v.endArray()
            #expect(TransactionRecord.records(inBatch: v.bytes) == transactions)
        }
        #expect(straight(" [ ] ", TradeRecord.self) == [])
    }

    @Test func theFormsTheTreeTakesReadAlike() throws {
        let cases = [
            // Numbers as strings and ids as numbers, exponents, a repeated key (the last wins),
            // unknown members of every plain kind, whitespace everywhere.
            #"[{"dateTime":"2019-11-25T08:08","instrument":"eos-btc","tradeType":"Sell","tradedQuantity":"1.50","tradedQuantityCurrency":"eos","tradedPrice":1.5E-7,"tradedPriceCurrency":"btc","tradeValueId":37605094,"x":true,"y":false,"z":null,"tradeType":"Buy"}]"#,
            "[\n\t" + Self.trade + " ,\r\n" + Self.trade + "\n]\n",
            #"[{"id": 12, "dateTime": "2019-11-25T08:08:44.000", "instrument": "eos-btc", "tradeType": "Buy", "tradedQuantity": -0, "tradedQuantityCurrency": "eos", "tradedPrice": 1e+2, "tradedPriceCurrency": "btc", "commission": "2", "commissionCurrency": "Eos", "tradeValueId": "välue"}]"#
        ]
        for text in cases {
            let tree = throughTree(text, TradeRecord.self)
            #expect(tree != nil, "\(text)")
            #expect(straight(text, TradeRecord.self) == tree, "\(text)")
        }
    }

    @Test func whatItDoesNotTakeIsLeftToTheTree() {
        let cases = [
            // Taken by the tree, with escapes or nested values.
            #"[{"dateTime":"2019-11-25T08:08","instrument":"eos-btc","tradeType":"Buy","tradedQuantity":1,"tradedQuantityCurrency":"eos","tradedPrice":1,"tradedPriceCurrency":"btc","tradeValueId":"a\"b"}]"#,
            #"[{"dateTime":"2019-11-25T08:08","instrument":"eos-btc","tradeType":"Buy","tradedQuantity":1,"tradedQuantityCurrency":"eos","tradedPrice":1,"tradedPriceCurrency":"btc","extra":{"a":[1]}}]"#,
            #"[{"dateTime":"2019-11-25T08:08","instrument":"eos-btc","tradeType":"Buy","tradedQuantity":1,"tradedQuantityCurrency":"eos","tradedPrice":1,"tradedPriceCurrency":"btc","\u0074radeValueId":"1"}]"#,
            // A name that is not ASCII: the tree compares names by canonical equivalence.
            "[{\"dateTime\":\"2019-11-25T08:08\",\"instrument\":\"eos-btc\",\"tradeType\":\"Buy\",\"tradedQuantity\":1,\"tradedQuantityCurrency\":\"eos\",\"tradedPrice\":1,\"tradedPriceCurrency\":\"btc\",\"\u{212A}\":1}]",
            // Refused by the tree: syntax, a record that does not read.
            #"[{"dateTime":"2019-11-25T08:08","instrument":"eos-btc","tradeType":"Buy","tradedQuantity":01,"tradedQuantityCurrency":"eos","tradedPrice":1,"tradedPriceCurrency":"btc"}]"#,
            #"[{"dateTime":"2019-11-25T08:08","instrument":"eos-btc","tradeType":"Buy","tradedQuantity":1,"tradedQuantityCurrency":"eos","tradedPrice":1,"tradedPriceCurrency":"btc",}]"#,
            #"[{"dateTime":"2019-11-25T08:08","instrument":"eos-btc","tradeType":"Hold","tradedQuantity":1,"tradedQuantityCurrency":"eos","tradedPrice":1,"tradedPriceCurrency":"btc"}]"#,
            "[" + Self.trade + "] x",
            "[" + Self.trade,
            "{}",
            "[1]",
            "[{\"tradeValueId\": \"\u{1}\"}]",
            "[{\"tradeValueId\": \"" + String(decoding: [0xC3, 0x28], as: UTF8.self) + "\"}]"
        ]
        for text in cases {
            #expect(straight(text, TradeRecord.self) == nil, "\(text)")
        }
        // Invalid UTF-8 in a string: the tree refuses it, and so is it left to the tree.
        let invalid: [UInt8] =
            Array(
                #"[{"dateTime":"2019-11-25T08:08","instrument":"eos-btc","tradeType":"Buy","tradedQuantity":1,"tradedQuantityCurrency":"eos","tradedPrice":1,"tradedPriceCurrency":"btc","tradeValueId":""#
                    .utf8)
            + [0xC3, 0x28] + Array(#""}]"#.utf8)
        #expect(TradeRecord.records(inBatch: invalid) == nil)
        #expect((try? JSONValue.parse(invalid)) == nil)
    }
}
