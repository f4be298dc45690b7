import Foundation
import Testing

@testable import TradeportSpec

enum Specs {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func load(_ text: String, file: String = "test.yaml") throws -> FormatSpec {
        try SpecLoader.load(text: text, file: file)
    }

    /// The errors loading `text` gives, as `line:key: message` strings.
    static func errors(_ text: String) -> [String] {
        do {
            _ = try SpecLoader.load(text: text, file: "bad.yaml")
            return []
        } catch let e as SpecErrors {
            return e.errors.map { "\($0.location.line):\($0.key): \($0.message)" }
        } catch {
            return ["unexpected \(error)"]
        }
    }

    static let minimal = """
        tradeport-format: 1
        id: example-trades
        description: An example
        source: {type: csv, delimiter: ",", header: 1}
        columns:
          - {name: time, header: Date, type: datetime, format: "yyyy-MM-dd HH:mm:ss"}
          - {name: pair, header: [Pair, Market], type: instrument}
          - {name: side, header: Side, map: {BUY: buy, SELL: sell}, ignore-case: true}
          - {name: quantity, header: Amount, type: decimal, check: positive}
          - {name: price, header: Price, type: decimal}
        rows: {kind: trade}
        trade:
          time: time
          side: side
          base: {base-of: pair}
          quote: {quote-of: pair}
          quantity: quantity
          price: price
        """
}

@Suite("Format specs: loading")
struct SpecLoaderTests {
    @Test("the built-in DSX specs load, with their columns, checks and mappings")
    func dsxSpecs() throws {
        for name in ["dsx-trades", "dsx-transactions"] {
            let path = Specs.repository + "/formats/\(name).yaml"
            let spec = try SpecLoader.load(text: try String(contentsOfFile: path, encoding: .utf8), file: path)
            #expect(spec.id == name)
            guard case .csv(let csv) = spec.source else {
                Issue.record("not CSV")
                continue
            }
            #expect(csv.delimiter == .byte(UInt8(ascii: ";")) && csv.quote == nil && csv.header == HeaderRule.none)
            #expect(spec.values.decimal == UInt8(ascii: ","))
        }
        let trades = try SpecLoader.load(text: try String(contentsOfFile: Specs.repository + "/formats/dsx-trades.yaml", encoding: .utf8), file: "t")
        #expect(trades.columns.count == 14 && trades.checks.count == 2)
        #expect(trades.column(named: "feeCurrency")?.required == .unlessZero("fee"))
        #expect(trades.trade?.fees == [FeeMapping(amount: .column("fee"), currency: .column("feeCurrency"), kind: "exchange")])
        #expect(trades.trade?.source(of: "venue") == .constant("DSX"))
    }

    @Test("a minimal spec: header names with aliases, an instrument split in two, a case-insensitive map")
    func minimal() throws {
        let spec = try Specs.load(Specs.minimal)
        #expect(spec.column(named: "pair")?.reference == .header(["Pair", "Market"]))
        #expect(spec.trade?.source(of: "base") == .part("pair", 0))
        if case .map(let entries, let ignoreCase)? = spec.column(named: "side")?.type {
            #expect(entries.map(\.to) == ["buy", "sell"] && ignoreCase)
        } else {
            Issue.record("side is not a map")
        }
    }

    @Test("values are read as written: no YAML typing of no, 0,5 or 010")
    func noImplicitTyping() throws {
        let side = """
              - name: side
                header: Side
                map:
                  no: buy
                  0,5: sell
                  010: sell
            """
        let spec = try Specs.load(
            Specs.minimal.replacingOccurrences(
                of: "  - {name: side, header: Side, map: {BUY: buy, SELL: sell}, ignore-case: true}", with: side))
        if case .map(let entries, _)? = spec.column(named: "side")?.type {
            #expect(entries.map(\.from) == ["no", "0,5", "010"])
        } else {
            Issue.record("side is not a map")
        }
    }

    @Test("every error names its line and key; all are reported, not only the first")
    func errorsNameLineAndKey() {
        let bad = """
            tradeport-format: 1
            id: Bad Id
            description: x
            source: {type: csv, delimter: ";"}
            columns:
              - {name: time, header: Date, type: datetime, format: "dd.MM.yyyy"}
              - {name: qty, header: Qty, type: decmal}
              - {name: qty, position: 0}
            rows: {kind: trade}
            trade: {time: time, side: sde, base: qty, quote: qty, quantity: qty}
            """
        let errors = Specs.errors(bad)
        #expect(errors.contains("2:id: 'Bad Id' is not an id: lower-case letters, digits and '-', like kraken-trades"))
        #expect(errors.contains { $0.hasPrefix("4:source.delimter: unknown key (did you mean 'delimiter'?)") })
        #expect(errors.contains { $0.hasPrefix("6:columns.time.format: 'dd.MM.yyyy': a datetime needs") })
        #expect(errors.contains { $0.hasPrefix("7:columns.qty.type: 'decmal' is not a type") })
        #expect(errors.contains { $0.hasPrefix("8:columns.qty: a second column named 'qty'") })
        #expect(errors.contains { $0.hasPrefix("8:columns.qty.position: '0' is not a column number") })
        #expect(errors.contains { $0.hasPrefix("10:trade.side: 'sde' is not one of the spec's columns") })
        #expect(errors.contains { $0.hasPrefix("10:trade.price: missing; a trade needs its price") })
    }

    @Test("instrument pairs must be BASE/QUOTE, and only an instrument takes them")
    func instrumentPairs() throws {
        let good = Specs.minimal.replacingOccurrences(of: "type: instrument}", with: "type: instrument, pairs: {XXBTZUSD: xbt/usd}}")
        guard case .instrument(_, let pairs, _)? = try Specs.load(good).columns.first(where: { $0.name == "pair" })?.type else {
            Issue.record("not an instrument")
            return
        }
        #expect(pairs == [ValueMapEntry(from: "XXBTZUSD", to: "XBT/USD")])
        let bad = Specs.minimal
            .replacingOccurrences(of: "type: instrument}", with: "type: instrument, pairs: {XXBTZUSD: XBTUSD, X: B C/D}}")
            .replacingOccurrences(of: "type: decimal}", with: "type: decimal, pairs: {A: B/C}}")
        let errors = Specs.errors(bad)
        #expect(errors.contains("7:columns.pair.pairs.XXBTZUSD: 'XBTUSD' is not BASE/QUOTE (two asset codes joined by /)"))
        #expect(errors.contains("7:columns.pair.pairs.X: 'B C/D' is not BASE/QUOTE (two asset codes joined by /)"))
        #expect(errors.contains { $0.hasPrefix("10:columns.price.pairs:") })
    }

    @Test("YAML problems: syntax, duplicate keys, aliases, an empty file")
    func yamlProblems() {
        #expect(
            Specs.errors("id: [unclosed\n").first?.hasPrefix("2::not valid YAML") == true
                || Specs.errors("id: [unclosed\n").first?.contains("not valid YAML") == true)
        let duplicate = Specs.errors(Specs.minimal + "\nid: again\n")
        #expect(duplicate.first?.contains("the key is given twice") == true)
        let alias = Specs.errors(Specs.minimal.replacingOccurrences(of: "description: An example", with: "description: &d An example\nx: *d"))
        #expect(alias.contains { $0.contains("unknown key") || $0.contains("aliases") })
        #expect(Specs.errors("").first?.contains("the file is empty") == true)
    }

    @Test("the printed form is file:line:column: error: key: message")
    func printedForm() {
        let error = SpecError(SpecLocation(file: "formats/x.yaml", line: 7, column: 3), key: "columns[2].type", "unknown type 'decmal'")
        #expect(error.description == "formats/x.yaml:7:3: error: columns[2].type: unknown type 'decmal'")
    }
}
