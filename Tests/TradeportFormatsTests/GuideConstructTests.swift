import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportSpec
import TradeportTestKit

/// The guide's section "What real exports need" (docs/adding-a-format.md): each construct's spec,
/// taken from the guide's text with the sample written under it, gives what the guide says.
@Suite("The guide's constructs for real exports, as written there")
struct GuideConstructTests {
    /// The guide's spec `id` converted on the `csv` block that follows it.
    static func run(_ id: String) throws -> CanonicalDocument {
        let spec = try SpecLoader.load(text: Guide.spec(id), file: id + ".yaml")
        return try TestKit.convert(Guide.sample(after: id), with: SpecReader(spec), name: id + ".csv")
    }

    static func text(_ t: Trade) -> String {
        "\(t.side.rawValue) \(t.quantity) \(t.base) \(t.quote) @\(t.price) =\(t.amount.map { "\($0)" } ?? "-")"
            + t.fees.map { " fee \($0.amount) \($0.currency)" }.joined()
    }

    static func text(_ t: CashTransaction) -> String { "\(t.type.rawValue) \(t.amount) \(t.asset)" }

    @Test("1. trades over several rows: group")
    func group() throws {
        let doc = try Self.run("guide-ledger")
        #expect(doc.rejected.isEmpty)
        #expect(
            doc.allTrades.map(Self.text) == [
                "buy 0.01 BTC EUR @42010.92 =420.1092 fee 0.5 EUR", "sell 0.01 BTC EUR @43488.69 =434.8869 fee 0.11 EUR"
            ])
        #expect(doc.allTrades.first?.time.description == "2024-01-15T10:30:45.1234Z")
        let source = try #require(doc.sources.first)
        #expect(source.rows == 6 && source.operations == 3 && source.merged == 3 && source.addsUp)
    }

    @Test("1b. a group that does not pair is rejected row by row, saying what it holds")
    func groupIncomplete() throws {
        let spec = try SpecLoader.load(text: Guide.spec("guide-ledger"), file: "g.yaml")
        let doc = try TestKit.convert(
            "refid,time,type,asset,amount,fee\nT1,2024-01-15 10:30:45,spend,ZEUR,-420,\nT2,2024-01-16 10:00:00,spend,ZEUR,-1,\nT2,2024-01-16 10:00:00,receive,XXBT,0.0001,\nT3,2024-01-17 10:00:00,receive,XXBT,0.01,\n",
            with: SpecReader(spec))
        #expect(doc.allTrades.count == 1)
        #expect(doc.rejected.map(\.source.row) == [2, 5])
        #expect(doc.rejected.first?.errors.first?.message.contains("row 2 make no trade: 0 in (+), 1 out (−)") == true)
        #expect(doc.sources.first?.addsUp == true)
    }

    @Test("2. number notations")
    func numbers() throws {
        let doc = try Self.run("guide-numbers")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(
            doc.allTransactions.map(Self.text) == [
                "withdrawal 1259.59 USD", "withdrawal 6.97 USD", "deposit 1757.95 USD", "deposit 0.000004615 USD", "deposit 0.76672417 USD"
            ])
        // Ambiguous with either separator; and without notations, the message names what reads it.
        let spec = try SpecLoader.load(text: Guide.spec("guide-numbers"), file: "n.yaml")
        let ambiguous = try TestKit.convert("Date,Amount,Units\n2024-01-02,\"1,234\",-\n", with: SpecReader(spec))
        #expect(ambiguous.rejected.first?.errors.first?.message.contains("ambiguous") == true)
        let plain = try SpecLoader.load(
            text: Guide.spec("guide-numbers").replacingOccurrences(
                of: "values: {decimal: either, symbols: [$, €], parentheses: true, exponent: true, empty: ['-']}", with: "values: {empty: ['-']}"),
            file: "p.yaml")
        let errors = try TestKit.convert("Date,Amount,Units\n2024-01-02,$420.10,-\n2024-01-03,(6.97),-\n2024-01-04,4.615E-06,-\n", with: SpecReader(plain))
            .rejected.map { $0.errors.first?.message ?? "" }
        #expect(
            errors == [
                "'$420.10' is not a number: '$' at position 1: a currency symbol is read with values: {symbols: ['$']}",
                "'(6.97)' is not a number: '(' at position 1: a negative number in parentheses is read with values: {parentheses: true}",
                "'4.615E-06' is not a number: unexpected 'E' at position 6; expected a number like 1234.56; 'E' at position 6: a power of ten is read with values: {exponent: true}"
            ])
    }

    @Test("3. derived values")
    func derived() throws {
        let doc = try Self.run("guide-derived")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTrades.map(Self.text) == ["buy 3 ARCC USD @19.23 =57.69 fee 1 USD", "sell 3 ARCC USD @19.77 =59.31 fee 1 USD"])
    }

    @Test("4. the type by a category and a sign")
    func signs() throws {
        let doc = try Self.run("guide-signs")
        #expect(doc.allTransactions.map(Self.text) == ["other-charge 0.07779065 USDT", "other-income 1.29642 USDT", "other-charge 0.05576 USDT"])
    }

    @Test("5. values inside free text")
    func text() throws {
        let doc = try Self.run("guide-text")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTrades.map(Self.text) == ["sell 2 CA0641491075 USD @63.97 =-", "buy 1 US9256521090 USD @33.9 =-"])
    }

    @Test("6. a fallback")
    func fallback() throws {
        let doc = try Self.run("guide-fallback")
        #expect(doc.allTrades.map(\.base.text) == ["CH0111762537", "CHF"])
    }

    @Test("7. one row, two operations")
    func two() throws {
        let doc = try Self.run("guide-two")
        #expect(doc.allTransactions.map(Self.text) == ["dividend 0.23 USD", "tax 0.03 USD", "dividend 1.11 USD"])
        let source = try #require(doc.sources.first)
        #expect(source.rows == 2 && source.extra == 1 && source.operations == 3 && source.addsUp)
    }

    @Test("8. columns of one kind of row")
    func kinds() throws {
        let doc = try Self.run("guide-kinds")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTrades.map(Self.text) == ["buy 0.337209 AMD USD @147.92013262 =49.88"])
        #expect(doc.allTransactions.map(Self.text) == ["dividend 0.17 USD"])
    }

    @Test("9. dates followed by text")
    func dates() throws {
        let doc = try Self.run("guide-dates")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTransactions.map { "\($0.time) \($0.amount)" } == ["2023-10-30T00:00:00Z 1.19", "2024-10-10T00:00:00Z 1.63"])
    }

    @Test("10. month names and 12-hour clocks")
    func months() throws {
        let doc = try Self.run("guide-months")
        #expect(
            doc.allTrades.map { "\($0.time) \($0.settlementDate.map { "\($0)" } ?? "-")" } == [
                "2022-01-28T00:13:00Z 2025-04-02", "2022-05-03T13:05:00Z 2025-01-16", "2022-09-30T12:00:00Z 2024-03-03"
            ])
        #expect(doc.rejected.map(\.source.row) == [5])
        #expect(doc.rejected.first?.errors.first?.message.contains("5 марта 2024") == true, "\(doc.rejected.map(\.errors))")
        // The same reader in Russian, and a date and a time in one field with a comma.
        let spec = try SpecLoader.load(
            text: Guide.spec("guide-months").replacingOccurrences(of: "d-MMM-yyyy", with: "d MMMM yyyy")
                .replacingOccurrences(of: "\"MMM. d, yyyy, h:mm a\"", with: "\"yyyy-MM-dd, HH:mm:ss\""), file: "m.yaml")
        let russian = try TestKit.convert(
            "Date,Settled,Quantity,Price\n\"2024-01-16, 10:30:00\",5 марта 2024,1,1\n\"2024-01-17, 10:30:00\",1 ДЕКАБРЯ 2024,1,1\n",
            with: SpecReader(spec))
        #expect(russian.rejected.isEmpty, "\(russian.rejected.map(\.errors))")
        #expect(
            russian.allTrades.map { "\($0.time) \($0.settlementDate.map { "\($0)" } ?? "-")" } == [
                "2024-01-16T10:30:00Z 2024-03-05", "2024-01-17T10:30:00Z 2024-12-01"
            ])
    }

    @Test("10b. the patterns a clock refuses")
    func clockPatterns() {
        for (pattern, message) in [
            ("yyyy-MM-dd HH:mm a", "HH is a 24-hour clock"), ("yyyy-MM-dd hh:mm", "a 12-hour clock needs both"),
            ("dd-MMMMM-yyyy HH:mm", "'MMMMM' is not a pattern letter run")
        ] {
            let text = Guide.spec("guide-months").replacingOccurrences(of: "MMM. d, yyyy, h:mm a", with: pattern)
            do {
                _ = try SpecLoader.load(text: text, file: "p.yaml")
                Issue.record("\(pattern) was taken")
            } catch {
                #expect("\(error)".contains(message), "\(pattern): \(error)")
            }
        }
    }

    @Test("11. choosing by another column: if")
    func conditions() throws {
        let doc = try Self.run("guide-if")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTrades.map(Self.text) == ["buy 223.7 MATIC EUR @0.7541 =168.69217", "sell 100 MATIC EUR @0.805 =80.5"])
        #expect(doc.allTransactions.map(Self.text) == ["deposit 500 EUR", "other-income 12 LUNA2"])
    }

    @Test("11c. a row's kind by two columns: x|y before x, x| for an empty second cell")
    func kindByTwoColumns() throws {
        let doc = try Self.run("guide-by-two")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTransactions.map(Self.text) == ["tax 88 SEK", "withdrawal 0.01 BTC"])
        #expect(
            doc.portfolios.flatMap(\.movements).map { "\($0.direction.rawValue) \($0.quantity) \($0.asset) \($0.reason.rawValue)" } == [
                "in 41.2275 FUNDA conversion"
            ])
        let spec = try SpecLoader.load(text: Guide.spec("guide-by-two"), file: "b.yaml")
        let odd = try TestKit.convert("Type,Time,Asset,Quantity,Amount\nOdd,2025-01-27 00:00:00,SEK,1,5\n", with: SpecReader(spec), name: "odd.csv")
        #expect(
            odd.rejected.first?.errors.first?.message.hasPrefix("'Odd|5' is neither a trade, a transaction nor a movement") == true,
            "\(odd.rejected.map(\.errors))")
    }

    @Test("11b. a type from a column")
    func typeFromAColumn() throws {
        let text = """
            tradeport-format: 1
            id: guide-type-from
            description: transfers whose direction is in their text
            source: {type: csv, header: 1}
            values: {timezone: UTC}
            columns:
              - {name: kind, header: Kind, type: text}
              - {name: time, header: Time, type: datetime, format: "yyyy-MM-dd HH:mm:ss"}
              - {name: description, header: Description, type: text}
              - {name: direction, from: description, match: '^(in|out|sideways) ', map: {in: deposit, out: withdrawal, sideways: sideways}, required: false, for: [transaction]}
              - {name: amount, header: Amount, type: decimal}
            rows: {by: kind, transaction: {Transfer: {from: direction}, Fee: fee}}
            transaction: {time: time, asset: {const: EUR}, amount: amount}

            """
        let spec = try SpecLoader.load(text: text, file: "t.yaml")
        let doc = try TestKit.convert(
            "Kind,Time,Description,Amount\nTransfer,2024-01-02 10:00:00,in from savings,10\nTransfer,2024-01-02 11:00:00,out to savings,4\nFee,2024-01-02 12:00:00,monthly,1\nTransfer,2024-01-02 13:00:00,sideways to nowhere,2\n",
            with: SpecReader(spec))
        #expect(doc.allTransactions.map(Self.text) == ["deposit 10 EUR", "withdrawal 4 EUR", "fee 1 EUR"])
        #expect(doc.rejected.map(\.source.row) == [5])
        #expect(doc.rejected.first?.errors.first?.message == "'sideways' is not a transaction type", "\(doc.rejected.map(\.errors))")
    }

    @Test("7b. one row, two kinds: a transaction and a movement")
    func redemption() throws {
        let doc = try Self.run("guide-redemption")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTransactions.map(Self.text) == ["coupon 312.5 USD", "redemption 25000 USD"])
        let movements = doc.portfolios.flatMap(\.movements)
        #expect(
            movements.map { "\($0.direction.rawValue) \($0.quantity) \($0.asset) \($0.reason.rawValue) row \($0.source.row)" } == [
                "out 25000 US912828YK04 redemption row 3"
            ])
        let source = try #require(doc.sources.first)
        #expect(source.rows == 2 && source.extra == 1 && source.operations == 3 && source.addsUp)
    }
}

extension GuideConstructTests {
    @Test("7c. one row, a trade and its tax")
    func tradeAndTax() throws {
        let doc = try Self.run("guide-trade-tax")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTrades.map { "\($0.side.rawValue) \($0.quantity) @ \($0.price)" } == ["buy 10 @ 50", "sell 4 @ 60", "sell 2 @ 58"])
        #expect(doc.allTransactions.map(Self.text) == ["deposit 1000 EUR", "tax 10.55 EUR"])
        #expect(doc.allTransactions.last?.source.row == 4)
        let source = try #require(doc.sources.first)
        #expect(source.rows == 4 && source.extra == 1 && source.operations == 5 && source.addsUp)
    }
}

extension GuideConstructTests {
    @Test("one row, three operations: a dividend, its tax and its conversion into the account's currency")
    func dividendTaxAndConversion() throws {
        let doc = try Self.run("guide-dividend-fx")
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(doc.allTrades.map(Self.text) == ["buy 10 ABC GBP @23.05 =230.5", "sell 0.39 USD GBP @0.79487179 =0.31"])
        #expect(doc.allTransactions.map(Self.text) == ["deposit 500 GBP", "dividend 0.46 USD", "tax 0.07 USD"])
        #expect(doc.warnings.isEmpty, "\(doc.warnings.map(\.message))")
        let source = try #require(doc.sources.first)
        #expect(source.rows == 3 && source.extra == 2 && source.operations == 5 && source.addsUp)
    }

    @Test("checks between numbers: a stated net amount against quantity × price and the fee")
    func numberChecks() throws {
        let doc = try Self.run("guide-checks")
        #expect(doc.allTrades.map { "\($0.side.rawValue) \($0.quantity) @ \($0.price)" } == ["buy 8 @ 12.5", "sell 3 @ 13"])
        #expect(
            doc.rejected.map { "\($0.source.row) \($0.errors.map { "\($0.field ?? ""): \($0.message)" })" } == [
                "4 [\"checks[0]: quantity × price is not the net amount and the fee: 0.88 and 27.89 are 27.01 apart, more than 0.01\"]"
            ])
    }
}

extension Guide {
    /// The fenced `csv` block that follows the guide's spec `id`.
    static func sample(after id: String) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let at = text.range(of: "\nid: \(id)\n"),
            let open = text.range(of: "```csv\n", range: at.upperBound..<text.endIndex),
            let close = text.range(of: "```", range: open.upperBound..<text.endIndex)
        else { fatalError("the guide has no sample after \(id)") }
        return String(text[open.upperBound..<close.lowerBound])
    }
}
