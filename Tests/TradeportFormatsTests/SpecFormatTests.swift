import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

@testable import TradeportSpec

/// Specs for layouts that are not built in, read end to end.
@Suite("Format specs: CSV layouts")
struct SpecFormatTests {
    /// The guide's spec (docs/adding-a-format.md, "Two more layouts"), as written there.
    static let brokerSpec = Guide.spec("example-broker")

    static let brokerCSV = """
        Выписка по счёту
        Номер;Дата;Время;Операция;Тикер;Валюта;Количество;Цена;Сумма
        1;05.02.2021;10:15:30;Покупка;SBER;RUB;1 000;270,50;270 500,00
        2;06.02.2021;09:00:00;Пополнение;;RUB;;;1 000 000
        3;07.02.2021;11:00:00;Отмена;SBER;RUB;1;1;1
        4;31.02.2021;11:00:00;Продажа;SBER;RUB;10;1,5,0;15
        """

    @Test("Windows-1251, ';', decimal comma, thousands by spaces, DD.MM.YYYY dates with times in their own column")
    func windows1251Broker() throws {
        let spec = try SpecLoader.load(text: Self.brokerSpec, file: "example-broker.yaml")
        let data = try #require(Self.brokerCSV.data(using: .windowsCP1251))
        let path = try TestKit.writeTemporaryFile(data, name: "statement.csv")
        let doc = try TestKit.convert(paths: [path], with: SpecReader(spec))
        let trade = try #require(doc.allTrades.first)
        #expect(trade.externalId == "1" && trade.side == .buy && trade.base.text == "SBER" && trade.quote.text == "RUB")
        #expect(trade.quantity == ExactDecimal("1000") && trade.price == ExactDecimal("270.5") && trade.amount == ExactDecimal("270500"))
        #expect(trade.time.description == "2021-02-05T07:15:30Z")
        #expect(doc.allTransactions.map { "\($0.type.rawValue) \($0.asset) \($0.amount)" } == ["deposit RUB 1000000"])
        #expect(doc.skipped.map(\.reason) == ["cancelled"])
        let reject = try #require(doc.rejected.first)
        #expect(reject.source.row == 6)
        #expect(reject.errors.map(\.field) == ["date", "price"])
        #expect(reject.errors.first?.message == "'31.02.2021' is not a date like dd.MM.yyyy (dd.MM.yyyy, a real calendar date)")
        #expect(reject.raw.contains("Продажа"))
        #expect(doc.sources.first.map { $0.rows == $0.operations + $0.skipped + $0.rejected } == true)
    }

    @Test("Windows-1252: German headers with umlauts, a note with € and ß, read as written; a drafted spec names the encoding")
    func windows1252Broker() throws {
        let spec = try SpecLoader.load(
            text: """
                tradeport-format: 1
                id: umlaut-broker
                description: a Western European export in Windows-1252
                source: {type: csv, delimiter: ";", encoding: windows-1252, header: {find: [Datum, Stückpreis]}}
                detect: {header: [Datum, Stückpreis, Währung]}
                values: {decimal: ",", timezone: Europe/Berlin}
                rows: {kind: trade}
                columns:
                  - {name: date, header: Datum, type: date, format: dd.MM.yyyy}
                  - {name: isin, header: ISIN, type: asset}
                  - {name: quantity, header: Stück, type: decimal}
                  - {name: price, header: Stückpreis, type: decimal}
                  - {name: currency, header: Währung, type: asset}
                  - {name: note, header: Buchungsinformation, type: text}
                trade: {time: date, side: {const: buy}, base: isin, quote: currency, quantity: quantity, price: price, name: note}
                """, file: "umlaut.yaml")
        let csv = "Datum;ISIN;Stück;Stückpreis;Währung;Buchungsinformation\n02.01.2024;DE0007164600;3;123,5;EUR;Kauf Straße € ½\n"
        let data = try #require(csv.data(using: .windowsCP1252))
        #expect(!data.contains(0xC3), "one byte per umlaut, not UTF-8")
        let path = try TestKit.writeTemporaryFile(data, name: "umsaetze.csv")
        let doc = try TestKit.convert(paths: [path], with: SpecReader(spec))
        let trade = try #require(doc.allTrades.first)
        #expect(trade.quantity == ExactDecimal("3") && trade.price == ExactDecimal("123.5") && trade.name == "Kauf Straße € ½")
        #expect(SpecReader(spec).detect(FormatProbe(name: path, head: Array(data), isWholeInput: true)) == .match)
        let draft = try SpecDrafter.draft(path: path, id: "umlaut-broker")
        #expect(draft.encoding == .windows1252, "\(draft.guesses)")
    }

    @Test("the portfolio comes from a column for trades and a constant for transactions; an empty one falls back to --portfolio")
    func portfolioPerKind() throws {
        let spec = try SpecLoader.load(
            text: Self.brokerSpec
                .replacingOccurrences(of: "windows-1251", with: "utf-8")
                .replacingOccurrences(
                    of: "  - {name: id, header: Номер, type: id}",
                    with: "  - {name: id, header: Номер, type: id}\n  - {name: book, header: Портфель, type: text, required: false}"
                )
                .replacingOccurrences(of: "  amount: amount\ntransaction:", with: "  amount: amount\n  portfolio: book\ntransaction:")
                + "\n  portfolio: {const: Cash}", file: "p.yaml")
        let csv = """
            x
            Номер;Дата;Время;Операция;Тикер;Валюта;Количество;Цена;Сумма;Портфель
            1;05.02.2021;10:15:30;Покупка;SBER;RUB;1;270,50;270,50;ИИС
            2;05.02.2021;10:16:30;Покупка;SBER;RUB;1;270,50;270,50;
            3;06.02.2021;09:00:00;Пополнение;;RUB;;;1 000;ИИС
            """
        let path = try TestKit.writeTemporaryFile(csv, name: "p.csv")
        let doc = try TestKit.convert(paths: [path], with: SpecReader(spec), options: ConversionOptions(portfolio: "default"))
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(
            doc.portfolios.map { "\($0.name): \($0.trades.compactMap(\.externalId)) \($0.transactions.compactMap(\.externalId))" }.sorted() == [
                "Cash: [] [\"3\"]", "default: [\"2\"] []", "ИИС: [\"1\"] []"
            ])
    }

    @Test("an instrument column: listed pairs first (XXBTZUSD), then the separators; a bad one is a reject naming the column")
    func instrumentPairs() throws {
        let spec = try SpecLoader.load(
            text: """
                tradeport-format: 1
                id: pairs-example
                description: x
                source: {type: csv, delimiter: ",", header: 1}
                assets: {XBT: BTC}
                columns:
                  - {name: time, header: time, type: datetime, format: "yyyy-MM-dd HH:mm:ss"}
                  - {name: pair, header: pair, type: instrument, separators: ["/", "-"], pairs: {XXBTZUSD: XBT/USD, XETHZEUR: ETH/EUR}}
                  - {name: side, header: side, map: {buy: buy, sell: sell}}
                  - {name: quantity, header: vol, type: decimal, check: positive}
                  - {name: price, header: price, type: decimal}
                rows: {kind: trade}
                trade: {time: time, side: side, base: {base-of: pair}, quote: {quote-of: pair}, quantity: quantity, price: price}
                """, file: "pairs.yaml")
        let csv = """
            time,pair,side,vol,price
            2024-01-02 10:00:00,XXBTZUSD,buy,1,42000
            2024-01-02 10:00:01,XETHZEUR,sell,2,2100
            2024-01-02 10:00:02,sol-eur,buy,3,90
            2024-01-02 10:00:03,SOLEUR,buy,3,90
            """
        let doc = try TestKit.convert(csv, with: SpecReader(spec), name: "pairs.csv")
        #expect(doc.allTrades.map { "\($0.base)/\($0.quote)" } == ["BTC/USD", "ETH/EUR", "SOL/EUR"])
        let reject = try #require(doc.rejected.first)
        #expect(reject.source.row == 5)
        #expect(reject.errors.map { "\($0.column ?? 0) \($0.field ?? ""): \($0.message)" } == ["2 pair: 'SOLEUR' is not two asset codes joined by / or -"])
    }

    @Test("a signed amount decides deposit or withdrawal, and its absolute value is the amount")
    func signConvention() throws {
        let spec = try SpecLoader.load(
            text: """
                tradeport-format: 1
                id: signed-statement
                description: x
                source: {type: csv, delimiter: ";", header: 1}
                values: {decimal: ",", thousands: space, timezone: UTC}
                columns:
                  - {name: date, header: Date, type: date, format: dd.MM.yyyy}
                  - {name: amount, header: Amount, type: decimal, check: signed}
                  - {name: currency, header: Currency, type: asset}
                rows: {kind: transaction}
                transaction:
                  time: date
                  type: {sign-of: amount, positive: deposit, negative: withdrawal}
                  amount: {abs: amount}
                  asset: currency
                """, file: "signed.yaml")
        let csv = "Date;Amount;Currency\n01.02.2021;1 500,25;EUR\n02.02.2021;-200;EUR\n03.02.2021;-x;EUR\n"
        let doc = try TestKit.convert(csv, with: SpecReader(spec), name: "signed.csv")
        #expect(doc.allTransactions.map { "\($0.type.rawValue) \($0.amount) \($0.asset)" } == ["deposit 1500.25 EUR", "withdrawal 200 EUR"])
        #expect(doc.rejected.map { $0.errors.map { "\($0.column ?? 0) \($0.field ?? "")" } } == [["2 amount"]])
        #expect(Specs.errorsOf(spec: "type: {sign-of: amount, positive: deposit}").contains { $0.contains("negative") })
    }

    @Test("detection by header reads the source as its spec does: Windows-1251, UTF-16, quoted headers")
    func detectionTranscodes() throws {
        let detecting = Self.brokerSpec.replacingOccurrences(of: "values:", with: "detect: {header: [Номер, Дата, Операция]}\nvalues:")
        let cp1251 = SpecReader(try SpecLoader.load(text: detecting, file: "d.yaml"))
        let data = try #require(Self.brokerCSV.data(using: .windowsCP1251))
        #expect(cp1251.detect(try SourceInput(path: try TestKit.writeTemporaryFile(data, name: "s.csv")).probe) == .match)
        let utf16 = SpecReader(try SpecLoader.load(text: detecting.replacingOccurrences(of: "windows-1251", with: "utf-16"), file: "d.yaml"))
        var u16 = Data([0xFF, 0xFE])
        u16.append(try #require(Self.brokerCSV.replacingOccurrences(of: "Номер;Дата", with: "\"Номер\";\"Дата\"").data(using: .utf16LittleEndian)))
        #expect(utf16.detect(try SourceInput(path: try TestKit.writeTemporaryFile(u16, name: "u.csv")).probe) == .match)
        #expect(!TestKit.detects(utf16, "Номер;Дата;Операция\n"))
    }

    @Test("detect.header: an entry may list alternatives (an export in the user's language), any one of which will do")
    func detectionByAlternatives() throws {
        let spec = Self.brokerSpec.replacingOccurrences(of: "windows-1251", with: "utf-8")
            .replacingOccurrences(of: "values:", with: "detect: {header: [[Номер, Number, Nummer], [Дата, Date], Операция]}\nvalues:")
        let reader = SpecReader(try SpecLoader.load(text: spec, file: "d.yaml"))
        #expect(TestKit.detects(reader, "title\nНомер;Дата;Операция\n"))
        #expect(TestKit.detects(reader, "title\nNummer;Date;Операция\n"))
        #expect(!TestKit.detects(reader, "title\nNummer;Datum;Операция\n"))  // no alternative of the second entry
        if case .noMatch(let reason) = reader.detect(FormatProbe(name: "x.csv", head: Array("a;b\n".utf8), isWholeInput: true)) {
            #expect(reason.contains("Номер|Number|Nummer, Дата|Date, Операция"), "\(reason)")
        }
        let empty = spec.replacingOccurrences(of: "[Дата, Date]", with: "[]")
        #expect(throws: SpecErrors.self) { try SpecLoader.load(text: empty, file: "d.yaml") }
    }

    @Test("values.zone-column: each row's times in the zone its column names; a name that is no zone rejects the row")
    func zoneColumn() throws {
        let spec = try SpecLoader.load(
            text: """
                tradeport-format: 1
                id: zoned
                description: rows that name their zone
                source: {type: csv, header: 1}
                values: {timezone: Europe/Amsterdam, zone-column: zone}
                columns:
                  - {name: zone, header: Zone, type: text, required: false}
                  - {name: time, header: Time, type: datetime, format: "yyyy-MM-dd HH:mm:ss"}
                  - {name: amount, header: Amount, type: decimal}
                rows: {kind: transaction}
                transaction: {time: time, type: {const: deposit}, asset: {const: EUR}, amount: amount}

                """, file: "zoned.yaml")
        let path = try TestKit.writeTemporaryFile(
            Data(
                "Zone,Time,Amount\nEurope/Lisbon,2024-10-01 09:15:00,1\n,2024-10-01 09:15:00,2\nAsia/Tokyo,2024-10-01 09:15:00,3\nMars/Olympus,2024-10-01 09:15:00,4\n"
                    .utf8),
            name: "zoned.csv")
        let doc = try TestKit.convert(paths: [path], with: SpecReader(spec))
        #expect(doc.allTransactions.map { "\($0.time)" } == ["2024-10-01T00:15:00Z", "2024-10-01T07:15:00Z", "2024-10-01T08:15:00Z"])
        #expect(doc.rejected.map { $0.errors.map(\.message) } == [["'Mars/Olympus' is not a time zone (an IANA name like Europe/Amsterdam)"]])
        let wrong = """
            tradeport-format: 1
            id: zoned
            description: x
            source: {type: csv, header: 1}
            values: {zone-column: nowhere}
            columns: [{name: time, header: Time, type: datetime, format: "yyyy-MM-dd HH:mm:ss"}]
            rows: {kind: trade}
            trade: {time: time}

            """
        let errors = try #require(throws: SpecErrors.self) { try SpecLoader.load(text: wrong, file: "w.yaml") }
        #expect(errors.errors.contains { $0.description.contains("values.zone-column: 'nowhere' is not one of the spec's columns") })
    }

    @Test("date patterns: yy is a year of this century; xxx and XXX an offset from UTC that makes the instant")
    func twoDigitYearsAndOffsets() throws {
        func spec(_ format: String) -> String {
            """
            tradeport-format: 1
            id: times
            description: times
            source: {type: csv, header: 1}
            values: {timezone: Europe/Amsterdam}
            columns:
              - {name: time, header: Time, type: datetime, format: "\(format)"}
            rows: {kind: transaction}
            transaction: {time: time, type: {const: deposit}, asset: {const: EUR}, amount: {const: '1'}}

            """
        }
        func times(_ format: String, _ cells: [String]) throws -> (times: [String], rejects: [String]) {
            let path = try TestKit.writeTemporaryFile("Time\n" + cells.map { $0 + "\n" }.joined(), name: "times.csv")
            let doc = try TestKit.convert(paths: [path], with: SpecReader(try SpecLoader.load(text: spec(format), file: "t.yaml")))
            return (doc.allTransactions.map { "\($0.time)" }, doc.rejected.flatMap { $0.errors.map(\.message) })
        }
        let short = try times("yy-MM-dd HH:mm:ss", ["25-07-24 21:30:41", "2025-07-24 21:30:41"])
        #expect(short.times == ["2025-07-24T19:30:41Z"])
        #expect(short.rejects.count == 1)
        let offsets = try times("yyyy-MM-dd'T'HH:mm:ssxxx", ["2022-07-02T09:09:41+02:00", "2022-01-02T09:09:41-0530", "2022-01-02T09:09:41Z"])
        #expect(offsets.times == ["2022-01-02T14:39:41Z", "2022-07-02T07:09:41Z"])
        #expect(offsets.rejects.count == 1, "xxx takes no Z")
        let zulu = try times("yyyy-MM-dd'T'HH:mm:ss[.F]XXX", ["2022-01-02T09:09:41.5Z", "2022-01-02T09:09:41+01:00"])
        #expect(zulu.times == ["2022-01-02T08:09:41Z", "2022-01-02T09:09:41.5Z"])
        #expect(throws: SpecErrors.self) { try SpecLoader.load(text: spec("yyyy-MM-dd HH:mm:ssxxxX"), file: "t.yaml") }
    }

    @Test("delimiter: auto takes the delimiter that splits the first lines alike")
    func autoDelimiter() throws {
        let spec = try SpecLoader.load(
            text: Self.brokerSpec
                .replacingOccurrences(of: "delimiter: \";\"", with: "delimiter: auto")
                .replacingOccurrences(of: "windows-1251", with: "utf-8"), file: "a.yaml")
        let doc = try TestKit.convert(Self.brokerCSV, with: SpecReader(spec), name: "a.csv")
        #expect(doc.allTrades.count == 1 && doc.allTransactions.count == 1)
        let tabs = try TestKit.convert(Self.brokerCSV.replacingOccurrences(of: ";", with: "\t"), with: SpecReader(spec), name: "t.csv")
        #expect(tabs.allTrades.count == 1 && tabs.allTransactions.count == 1)
    }

    @Test("a rule reading another column works wherever the spec lists that column")
    func ruleOrder() throws {
        let spec = try SpecLoader.load(
            text: """
                tradeport-format: 1
                id: order-example
                description: x
                source: {type: csv, delimiter: ",", header: 1}
                columns:
                  - {name: time, header: time, type: datetime, format: "yyyy-MM-dd HH:mm:ss"}
                  - {name: feeCurrency, header: feeCurrency, type: asset, required: {unless-zero: fee}}
                  - {name: amount, header: amount, type: decimal, check: transaction-amount}
                  - {name: fee, header: fee, type: decimal}
                  - {name: status, header: status, map: {ok: complete, failed: failed}}
                rows: {kind: transaction}
                transaction: {time: time, type: {const: deposit}, asset: {const: EUR}, amount: amount, status: status, fee: {amount: fee, currency: feeCurrency}}
                """, file: "o.yaml")
        let csv = """
            time,feeCurrency,amount,fee,status
            2021-01-01 00:00:00,,5,0,ok
            2021-01-02 00:00:00,,5,1,ok
            2021-01-03 00:00:00,,0,0,failed
            2021-01-04 00:00:00,,0,0,ok
            """
        let doc = try TestKit.convert(csv, with: SpecReader(spec), name: "o.csv", options: ConversionOptions(keepFailed: true))
        #expect(doc.allTransactions.map(\.source.row) == [2, 4])
        #expect(doc.rejected.map { "\($0.source.row) \($0.errors.map { $0.field ?? "" })" } == ["3 [\"feeCurrency\"]", "5 [\"amount\"]"])
    }

    @Test("UTF-16 with a byte-order mark reads like UTF-8")
    func utf16() throws {
        let spec = try SpecLoader.load(text: Self.brokerSpec.replacingOccurrences(of: "windows-1251", with: "utf-16"), file: "x.yaml")
        var data = Data([0xFF, 0xFE])
        data.append(try #require(Self.brokerCSV.data(using: .utf16LittleEndian)))
        let doc = try TestKit.convert(paths: [try TestKit.writeTemporaryFile(data, name: "u16.csv")], with: SpecReader(spec))
        #expect(doc.allTrades.count == 1 && doc.allTransactions.count == 1)
    }

    @Test("a header without a required column is an error naming it; optional ones may be missing")
    func missingHeader() throws {
        let spec = try SpecLoader.load(text: Self.brokerSpec.replacingOccurrences(of: "windows-1251", with: "utf-8"), file: "x.yaml")
        let path = try TestKit.writeTemporaryFile("x\nНомер;Дата;Время;Операция;Сумма\n", name: "h.csv")
        do {
            _ = try TestKit.convert(paths: [path], with: SpecReader(spec))
            Issue.record("a missing required column was accepted")
        } catch let e as InputError {
            #expect(e.message.contains("the header has no column 'Валюта'"))
            #expect(!e.message.contains("Тикер") && !e.message.contains("Количество"))
        }
    }
}

@Suite("Format specs: XLSX layouts")
struct SpecWorkbookTests {
    /// The guide's spec (docs/adding-a-format.md, "Two more layouts"), as written there.
    static let spec = Guide.spec("example-workbook")

    @Test("an XLSX sheet whose header is on row 5: number cells, date cells, text with decimal commas")
    func headerOnRowFive() throws {
        let styles = "<cellXfs count=\"2\"><xf numFmtId=\"0\"/><xf numFmtId=\"22\"/></cellXfs>"
        var data = ""
        data += "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>Отчёт о сделках</t></is></c></row>"
        data += "<row r=\"3\"><c r=\"A3\" t=\"inlineStr\"><is><t>Период: февраль 2021</t></is></c></row>"
        data +=
            "<row r=\"5\">"
            + ["№", "Дата сделки", "Инструмент", "Направление", "Количество", "Цена"].enumerated().map {
                "<c r=\"\(TestWorkbook.columnName($0.offset + 1))5\" t=\"inlineStr\"><is><t>\($0.element)</t></is></c>"
            }.joined() + "</row>"
        data += "<row r=\"6\"><c r=\"B6\"><v>7</v></c><c r=\"C6\" s=\"1\"><v>44232.4375</v></c><c r=\"D6\" t=\"inlineStr\"><is><t>BTC/USD</t></is></c>"
        data += "<c r=\"E6\" t=\"inlineStr\"><is><t>Buy</t></is></c><c r=\"F6\"><v>0.5</v></c><c r=\"G6\" t=\"inlineStr\"><is><t>38 000,5</t></is></c></row>"
        data +=
            "<row r=\"7\"><c r=\"B7\"><v>8</v></c><c r=\"C7\" t=\"inlineStr\"><is><t>06.02.2021 11:30</t></is></c><c r=\"D7\" t=\"inlineStr\"><is><t>ETH/USD</t></is></c>"
        data += "<c r=\"E7\" t=\"inlineStr\"><is><t>Sell</t></is></c><c r=\"F7\"><v>2</v></c><c r=\"G7\"><v>1600.1000000000001</v></c></row>"
        let book = TestWorkbook.make(sheets: [("Сделки", "sheet1.xml", data)], stylesXML: styles)
        let path = try book.writeTemporary(name: "trades.xlsx")
        let reader = SpecReader(try SpecLoader.load(text: Self.spec, file: "w.yaml"))
        let input = try SourceInput(path: path)
        #expect(reader.detect(input.probe) == .match)
        let doc = try TestKit.convert(paths: [path], with: reader)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        let trades = doc.allTrades
        #expect(
            trades.map { "\($0.externalId ?? "") \($0.side.rawValue) \($0.base)/\($0.quote) \($0.quantity) @ \($0.price) \($0.time)" } == [
                "7 buy BTC/USD 0.5 @ 38000.5 2021-02-05T10:30:00Z",
                "8 sell ETH/USD 2 @ 1600.1 2021-02-06T11:30:00Z"
            ])
        #expect(trades.first?.source.sheet == "Сделки" && trades.first?.source.row == 6)
    }
}

@Suite("Format specs: tradeport's own layouts")
struct OwnLayoutTests {
    @Test("the CSV and XLSX layouts read the same columns into the same fields, as the sinks write them")
    func bothLayoutsAgree() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let (csv, csvText) = try SpecLoader.load(contentsOfFile: root + "/formats/tradeport-csv.yaml")
        let xlsxText = try SpecLoader.load(contentsOfFile: root + "/formats/tradeport-xlsx.yaml").text
        // Everything from the columns on is the same text (the spec language has no includes).
        func body(_ text: String) -> Substring { text[text.range(of: "\ncolumns:")!.lowerBound...] }
        #expect(body(csvText) == body(xlsxText))
        // Every column the sinks write is read back (the layout's one list, OperationColumns.names).
        let headers = Set(csv.columns.compactMap { c -> String? in if case .header(let names) = c.reference { return names[0] } else { return nil } })
        #expect(Set(OperationColumns.names) == headers)
    }

    @Test("the committed layout specs are the ones generated from the field tables", arguments: OwnLayoutSpecs.Container.allCases)
    func layoutSpecsAreGenerated(_ container: OwnLayoutSpecs.Container) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let path = root + "/" + container.path
        let generated = OwnLayoutSpecs.text(container)
        if ProcessInfo.processInfo.environment["TRADEPORT_REGENERATE"] == "1" {
            try generated.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            committed == generated,
            "\(container.path) differs from OwnLayoutSpecs.text(.\(container)); TRADEPORT_REGENERATE=1 swift test --filter OwnLayoutTests rewrites it")
        // It loads as a spec.
        _ = try SpecLoader.load(contentsOfFile: path)
    }

    @Test("the spec language's type and fee-kind lists are the model's")
    func listsAreTheModels() {
        #expect(SpecParser.transactionTypes == CashTransactionType.allCases.map(\.rawValue))
        #expect(SpecParser.feeKinds == FeeKind.allCases.map(\.rawValue))
    }

    static let header = "kind,portfolio,id,externalId,time,side,base,quote,quantity,price,amount,type,asset"

    @Test("an id the file carries is kept; an empty one is made as usual; a malformed one is a reject")
    func ids() throws {
        let csv = """
            \(Self.header)
            trade,main,dsx-trades:41000012,41000012,2021-03-02T14:05:09Z,buy,EURS,USD,250,1.2034,300.85,,
            transaction,main,tinkoff-report:~0a1b2c3d4e5f60718293.1,,2021-03-02T14:05:09Z,,,,,,100,deposit,RUB
            transaction,main,,,2021-03-03T10:00:00Z,,,,,,5,withdrawal,RUB
            trade,main,not an id,7,2021-03-02T14:05:09Z,buy,EURS,USD,1,1,1,,
            """
        let doc = try TestKit.convert(csv, with: BuiltIn.reader("tradeport-csv"), name: "own.csv")
        #expect(doc.allTrades.map(\.id) == ["dsx-trades:41000012"])
        #expect(doc.allTransactions.map(\.id).first == "tinkoff-report:~0a1b2c3d4e5f60718293.1")
        #expect(doc.allTransactions.last?.id.hasPrefix("tradeport-csv:~") == true)
        let reject = try #require(doc.rejected.first)
        #expect(reject.source.row == 5)
        #expect(reject.errors.map { "\($0.field ?? ""): \($0.message)" } == ["id: 'not an id' is not a tradeport id (format:id, like dsx-trades:37550914)"])
    }

    @Test("several fees of one kind come back from one cell (list:), a negative accrued interest too; a list without its currencies is a reject")
    func feeListsAndSignedInterest() throws {
        let csv = """
            kind,portfolio,time,side,base,quote,quantity,price,accruedInterest,fee.broker,fee.broker.currency,fee.exchange,fee.exchange.currency
            trade,main,2021-03-02T14:05:09Z,buy,SU26238,RUB,2,990.5,-1.25,0.1;0.2,RUB;USD,0.03,RUB
            trade,main,2021-03-02T14:05:10Z,buy,SU26238,RUB,2,990.5,,0.1;0.2,RUB,,
            trade,main,2021-03-02T14:05:11Z,buy,SU26238,RUB,2,990.5,,0.1;x,RUB;RUB,,
            """
        let doc = try TestKit.convert(csv, with: BuiltIn.reader("tradeport-csv"), name: "own.csv")
        let trade = try #require(doc.allTrades.first)
        #expect(doc.allTrades.count == 1)
        #expect(trade.accruedInterest == ExactDecimal("-1.25"))
        #expect(trade.fees.map { "\($0.amount) \($0.currency) \($0.kind)" } == ["0.1 RUB broker", "0.2 USD broker", "0.03 RUB exchange"])
        #expect(doc.rejected.map(\.source.row) == [3, 4])
        #expect(doc.rejected.first?.errors.map(\.message) == ["2 broker fee amounts but 1 currencies: each amount needs its currency"])
        #expect(doc.rejected.last?.errors.first?.message.contains("'x' is not a number") == true)
    }
}

enum Specs {
    /// The errors of the signed-statement spec with its `type` line replaced.
    static func errorsOf(spec typeLine: String) -> [String] {
        let text = """
            tradeport-format: 1
            id: signed-statement
            description: x
            source: {type: csv, delimiter: ";", header: 1}
            columns:
              - {name: date, header: Date, type: date, format: dd.MM.yyyy}
              - {name: amount, header: Amount, type: decimal, check: signed}
            rows: {kind: transaction}
            transaction:
              time: date
              \(typeLine)
              amount: {abs: amount}
              asset: {const: EUR}
            """
        do {
            _ = try SpecLoader.load(text: text, file: "s.yaml")
            return []
        } catch let e as SpecErrors {
            return e.errors.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }
}
