import Foundation
import Testing
import TradeportCore
import TradeportTestKit
import TradeportXLSX

@testable import TradeportFormats

/// A small Tinkoff-style report built cell by cell: the real layout's structure (title block,
/// numbered sections, header rows whose columns shift from page to page, `N из` footers).
enum TinkoffFixture {
    static let tradeHeaders = [
        "Номер сделки", "Номер поруче\nния", "Дата заклю\nчения", "Время", "Торговая площадка",
        "Режим торгов", "Вид сделки", "Сокращен\nное наименова\nние актива", "Код актива",
        "Цена за едини\nцу", "Валю\nта цены", "Количество", "Сумма (без НКД)", "НКД", "Сумма сделки",
        "Валюта расчетов", "Комис\nсия брокера", "Валю\nта комис\nсии", "Комиссия биржи",
        "Валюта комиссии биржи", "Комиссия клир. центра", "Валюта комиссии клир. центра",
        "Дата расчетов"
    ]
    static let layoutA = [0, 4, 7, 11, 17, 23, 27, 31, 39, 44, 48, 53, 56, 61, 68, 74, 80, 84, 89, 94, 100, 104, 117]
    static let layoutB = [0, 3, 6, 12, 19, 25, 29, 33, 41, 46, 50, 55, 58, 63, 70, 76, 82, 86, 91, 96, 102, 106, 119]
    static let cashHeaders = ["Дата", "Время совершения", "Дата исполнения", "Операция", "Сумма зачисления", "Сумма списания", "Примечание"]
    static let cashColumns = [0, 13, 32, 51, 73, 96, 120]

    static func row(_ layout: [Int], _ values: [Any?]) -> [Int: Any] {
        var r: [Int: Any] = [:]
        for (i, v) in values.enumerated() { if let v { r[layout[i]] = v } }
        return r
    }

    static func header(_ layout: [Int], without: Set<String> = []) -> [Int: Any] {
        row(layout, tradeHeaders.map { without.contains($0) ? nil : $0 })
    }

    static var title: [[Int: Any]] {
        [
            [0: "Брокер: АО «Тинькофф Банк»"], [0: "Дата расчета: 01.01.2021"], [0: "Инвестор: USERNAME"],
            [0: "Отчет о сделках и операциях за период 01.01.2021 – 01.01.2021"]
        ]
    }

    /// The report most tests read: two pages of trades (string and numeric values), a repo leg, a
    /// pending deal, a RUB cash block with every kind of row, and the securities.
    static var report: [[Int: Any]] {
        var rows = title
        rows.append([0: "1.1 Информация о совершенных и исполненных сделках на конец отчетного периода"])
        rows.append(header(layoutA))  // row 6
        rows.append(
            row(
                layoutA,
                [
                    "101", "9001", "05.02.2021", "10:15:30", "МосБиржа", "TQBR", "Покупка", "Сбербанк России", "SBER",
                    "270,50", "RUB", "10", "2705", "0", "2 705,00", "RUB", "0,81", "RUB", "0.27", "RUB", "0", "RUB", "09.02.2021"
                ]))
        rows.append([144: "1 из ", 148: 3])
        rows.append(header(layoutB))  // row 9: the columns moved
        rows.append(
            row(
                layoutB,
                [
                    102, 9002, "05.02.2021", "18:00:00", "СПБ", "SPBXM", "Продажа", "Apple", "AAPL",
                    TestWorkbook.Number("130.25"), "USD", 2, TestWorkbook.Number("260.5"), 0, TestWorkbook.Number("260.5"),
                    "USD", TestWorkbook.Number("0.78"), "USD", 0, "USD", 0, "USD", "09.02.2021/10.02.2021"
                ]))
        rows.append(
            row(
                layoutB,
                [
                    "103", "9003", "05.02.2021", "11:00:00", "МосБиржа", "RPMA", "РЕПО 1 Продажа", "Сбербанк России", "SBER",
                    "270", "RUB", "5", "1350", "0", "1350", "RUB", "0", "RUB", "0", "RUB", "0", "RUB", "05.02.2021"
                ]))
        rows.append([144: "2 из ", 148: 3])
        rows.append([0: "1.2 Информация о неисполненных сделках на конец отчетного периода"])
        rows.append(header(layoutA))
        rows.append(
            row(
                layoutA,
                [
                    "104", "9004", "05.02.2021", "19:00:00", "СПБ", "SPBXM", "Покупка", "Apple", "AAPL",
                    "131", "USD", "1", "131", "0", "131", "USD", "0,39", "USD", "0", "USD", "0", "USD", "09.02.2021"
                ]))  // row 15
        rows.append([0: "2. Операции с денежными средствами"])
        rows.append([0: "Валюта", 13: "Входящий остаток на начало периода:", 32: "Исходящий остаток на конец периода:"])
        rows.append([0: "RUB", 13: "0", 32: 0])  // row 18: balance summary
        rows.append([0: "RUB"])
        rows.append(row(cashColumns, cashHeaders))
        rows.append(row(cashColumns, ["04.02.2021", "12:00:00", "04.02.2021", "Пополнение счета", 50000, "0", nil]))  // row 21
        rows.append(row(cashColumns, [nil, nil, "05.02.2021", "Покупка/продажа", "0", 2705, nil]))
        rows.append(row(cashColumns, ["06.02.2021", "09:00:00", "06.02.2021", "Налог", "13", "0", nil]))  // a refund
        rows.append(row(cashColumns, ["07.02.2021", "09:00:00", "07.02.2021", "Вывод средств", "0", "1000", "План"]))
        rows.append(row(cashColumns, ["08.02.2021", "09:00:00", "08.02.2021", "Зачисление бонуса", "100", "0", nil]))  // row 25
        rows.append([0: "USD"])
        rows.append(row(cashColumns, cashHeaders))
        rows.append(row(cashColumns, ["08.02.2021", "23:30:00", "09.02.2021", "Выплата дивидендов", TestWorkbook.Number("1.5E1"), "0", "Apple/ 3 шт."]))
        rows.append([0: "4.1 Информация о ценных бумагах"])
        rows.append([0: "Сокращенное наименование актива", 21: "Код актива", 36: "ISIN"])
        rows.append([0: "Apple", 21: "AAPL", 36: "US0378331005"])
        rows.append([144: "3 из ", 148: 3])
        rows.append([0: "Сокращенное наименование актива", 21: "Код актива", 36: "ISIN"])
        rows.append([0: "Сбербанк России", 21: "SBER", 36: "RU0009029540"])
        return rows
    }

    static func convert(_ rows: [[Int: Any]], options: ConversionOptions = ConversionOptions()) throws -> CanonicalDocument {
        let path = try TestWorkbook.rows(rows, sheetName: "broker_rep").writeTemporary(name: "report.xlsx")
        return try TestKit.convert(paths: [path], with: TinkoffReportReader(), options: options)
    }
}

@Suite("Tinkoff broker report")
struct TinkoffReportTests {
    @Test("trades from every page, mapped by each page's own header; numbers as text or cells; ISINs from 4.1")
    func trades() throws {
        let doc = try TinkoffFixture.convert(TinkoffFixture.report)
        let trades = doc.allTrades
        #expect(trades.map(\.externalId) == ["101", "102"])
        let sber = trades[0]
        #expect(sber.side == .buy)
        #expect(sber.base.text == "SBER" && sber.quote.text == "RUB")
        #expect(sber.quantity == ExactDecimal("10") && sber.price == ExactDecimal("270.5") && sber.amount == ExactDecimal("2705"))
        #expect(sber.fees.map { "\($0.kind.rawValue) \($0.amount) \($0.currency)" } == ["broker 0.81 RUB"])  // the exchange fee is part of the broker's
        #expect(sber.time.description == "2021-02-05T07:15:30Z")  // 10:15:30 in Moscow
        #expect(sber.isin == "RU0009029540")
        #expect(sber.name == "Сбербанк России" && sber.venue == "МосБиржа" && sber.orderId == "9001")
        #expect(sber.settlementDate?.description == "2021-02-09")
        #expect(sber.source.row == 7 && sber.source.sheet == "broker_rep")
        let apple = trades[1]
        #expect(apple.side == .sell && apple.base.text == "AAPL" && apple.quote.text == "USD")
        #expect(apple.price == ExactDecimal("130.25") && apple.quantity == ExactDecimal("2") && apple.amount == ExactDecimal("260.5"))
        #expect(apple.fees.map(\.amount) == [ExactDecimal("0.78")])
        #expect(apple.isin == "US0378331005")
        #expect(apple.settlementDate?.description == "2021-02-10")  // planned/actual: the actual one
        #expect(apple.id == "tinkoff-report:102")
    }

    /// An ISO date cell (`t="d"`) is read whole: a real date with a real time of day, or a reject
    /// naming the cell; never its first ten characters.
    @Test(arguments: [
        ("2021-02-05", true), ("2021-02-05T00:00:00", true), ("2021-02-05T10:15:30.000", true),
        ("2021-01-01T99:99:99", false), ("2021-01-01Tgarbage", false), ("9999-12-31T24:00:00", false),
        ("2021-02-30", false), ("2021-02-05T10:15:30Z", false), ("2021-02-05T10:15:30.5", false), ("2021-02-05 ", false)
    ])
    func isoDateCellsAreReadWhole(text: String, good: Bool) throws {
        var rows = TinkoffFixture.report
        rows[6][TinkoffFixture.layoutA[2]] = TestWorkbook.ISODate(text)
        let doc = try TinkoffFixture.convert(rows)
        if good {
            #expect(doc.allTrades.first?.time.description == "2021-02-05T07:15:30Z")
            #expect(!doc.rejected.contains { $0.source.row == 7 })
        } else {
            #expect(doc.allTrades.map(\.externalId) == ["102"])
            let reject = try #require(doc.rejected.first { $0.source.row == 7 })
            #expect(reject.errors.contains { $0.message.contains("'\(text)' is not a date") }, "\(reject.errors)")
        }
    }

    @Test("repo legs, pending deals, trade cash legs, planned rows and reference rows are skipped with their reasons")
    func skips() throws {
        let doc = try TinkoffFixture.convert(TinkoffFixture.report)
        func reason(_ row: Int) -> String? { doc.skipped.first { $0.source.row == row }?.reason }
        #expect(reason(11)?.hasPrefix("repo") == true)
        #expect(reason(15)?.hasPrefix("pending") == true)
        #expect(reason(18)?.hasPrefix("balance summary") == true)
        #expect(reason(22)?.hasPrefix("trade cash leg") == true)
        #expect(reason(24)?.hasPrefix("planned") == true)
        #expect(reason(31)?.contains("4.1") == true)
        #expect(reason(34)?.contains("4.1") == true)
        // Headers, repeated headers, footers, headings and the title block are not rows.
        let source = doc.sources[0]
        #expect(source.rows == 13)
        #expect(source.rows == source.operations + source.skipped + source.rejected + source.duplicates)
    }

    @Test("cash rows: types by operation, direction from the amount columns, dividends get their ticker")
    func cash() throws {
        let doc = try TinkoffFixture.convert(TinkoffFixture.report)
        let cash = doc.allTransactions
        #expect(cash.map(\.type) == [.deposit, .taxRefund, .dividend])
        #expect(cash.map { $0.amount.description } == ["50000", "13", "15"])
        #expect(cash.map(\.asset.text) == ["RUB", "RUB", "USD"])
        #expect(cash[2].security == "AAPL" && cash[2].note == "Apple/ 3 шт.")
        #expect(cash[0].time.description == "2021-02-04T09:00:00Z")
        #expect(cash[2].time.description == "2021-02-08T20:30:00Z")
    }

    @Test("an operation tradeport does not know is a reject naming its text")
    func unknownOperation() throws {
        let doc = try TinkoffFixture.convert(TinkoffFixture.report)
        #expect(doc.rejected.count == 1)
        let reject = try #require(doc.rejected.first)
        #expect(reject.source.row == 25)
        #expect(reject.errors.first?.message.contains("'Зачисление бонуса' is an operation tradeport does not know") == true)
        #expect(reject.errors.first?.column == 52)
        #expect(reject.raw.contains("Зачисление бонуса"))
    }

    @Test("a header without a required column rejects its rows naming the column; optional columns may be missing")
    func missingColumns() throws {
        var rows = TinkoffFixture.title
        rows.append([0: "1.1 Информация о совершенных и исполненных сделках на конец отчетного периода"])
        rows.append(TinkoffFixture.header(TinkoffFixture.layoutA, without: ["Цена за едини\nцу"]))
        rows.append(
            TinkoffFixture.row(
                TinkoffFixture.layoutA,
                [
                    "1", "1", "05.02.2021", "10:00:00", "СПБ", "X", "Покупка", "Apple", "AAPL",
                    "1", "USD", "1", "1", "0", "1", "USD", "0", "USD", "0", "USD", "0", "USD", "05.02.2021"
                ]))
        rows.append(TinkoffFixture.header(TinkoffFixture.layoutB, without: ["НКД", "Комиссия биржи", "Валюта комиссии биржи", "Торговая площадка"]))
        rows.append(
            TinkoffFixture.row(
                TinkoffFixture.layoutB,
                [
                    "2", "2", "05.02.2021", "10:00:00", nil, "X", "Покупка", "Apple", "AAPL",
                    "1", "USD", "1", "1", nil, "1", "USD", "0", "USD", nil, nil, "0", "USD", "05.02.2021"
                ]))
        let doc = try TinkoffFixture.convert(rows)
        #expect(doc.rejected.count == 1)
        #expect(doc.rejected.first?.errors.first?.message.contains("has no column 'Цена за единицу'") == true)
        #expect(doc.allTrades.map(\.externalId) == ["2"])
    }

    @Test("bad values are rejected with their column, text and what was expected")
    func badValues() throws {
        var rows = TinkoffFixture.title
        rows.append([0: "1.1 Информация о совершенных и исполненных сделках на конец отчетного периода"])
        rows.append(TinkoffFixture.header(TinkoffFixture.layoutA))
        rows.append(
            TinkoffFixture.row(
                TinkoffFixture.layoutA,
                [
                    "1", "1", "31.02.2021", "25:00:00", "СПБ", "X", "Обмен", "Apple", "AAPL",
                    "1,2,3", "USD", "-1", "1", "0", "1", "USD", "0", "USD", "0", "USD", "0", "USD", "05.02.2021"
                ]))
        let doc = try TinkoffFixture.convert(rows)
        let messages = doc.rejected.first?.errors.map { "\($0.column ?? 0) \($0.field ?? "") \($0.message)" } ?? []
        #expect(messages.count == 5)
        #expect(messages.contains { $0.hasPrefix("28 side 'Обмен'") })
        #expect(messages.contains { $0.hasPrefix("8 time '31.02.2021' is not a date") })
        #expect(messages.contains { $0.hasPrefix("12 time '25:00:00' is not a time") })
        #expect(messages.contains { $0.hasPrefix("45 price '1,2,3' is not a number") })
        #expect(messages.contains { $0.hasPrefix("54 quantity '-1' must be greater than 0") })
    }

    @Test("a fee that is not a number is rejected naming its field and the column of its header; a deal without a number (the broker's templates) is not")
    func feeAndEmptyCellErrors() throws {
        var rows = TinkoffFixture.title
        rows.append([0: "1.1 Информация о совершенных и исполненных сделках на конец отчетного периода"])
        rows.append(TinkoffFixture.header(TinkoffFixture.layoutA))
        rows.append(
            TinkoffFixture.row(
                TinkoffFixture.layoutA,
                [
                    nil, "1", "05.02.2021", "10:00:00", "СПБ", "X", "Покупка", "Apple", "AAPL",
                    "1", "USD", "1", "1", "0", "1", "USD", "x", "USD", "1", "??", "0", "USD", "05.02.2021"
                ]))
        let doc = try TinkoffFixture.convert(rows)
        let messages = doc.rejected.first?.errors.map { "\($0.column ?? 0) \($0.field ?? "") \($0.message)" } ?? []
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("81 fees.broker 'x' is not a number") })
    }

    @Test("times are Moscow time unless another zone is given")
    func timeZone() throws {
        let doc = try TinkoffFixture.convert(
            TinkoffFixture.report,
            options: ConversionOptions(read: ReadOptions(timeZone: SourceTimeZone(identifier: "UTC"))))
        #expect(doc.allTrades[0].time.description == "2021-02-05T10:15:30Z")
    }

    @Test("detection reads the workbook's content; other workbooks and files are not claimed")
    func detection() throws {
        let reader = TinkoffReportReader()
        func probe(_ path: String, filePath: Bool = true) throws -> Detection {
            let input = try SourceInput(path: path)
            let p = input.probe
            return reader.detect(filePath ? p : FormatProbe(name: p.name, head: p.head, isWholeInput: p.isWholeInput))
        }
        let report = try TestWorkbook.rows(TinkoffFixture.report, sheetName: "broker_rep").writeTemporary(name: "r.xlsx")
        #expect(try probe(report) == .match)
        let other = try TestWorkbook.rows([[0: "Date", 1: "Amount"], [0: "2021-01-01", 1: 5]]).writeTemporary()
        guard case .noMatch(let reason) = try probe(other) else {
            Issue.record("claimed another workbook")
            return
        }
        #expect(reason.contains("not a Tinkoff broker report"))
        guard case .noMatch(let stdinReason) = try probe(report, filePath: false) else {
            Issue.record("claimed without looking")
            return
        }
        #expect(stdinReason.contains("--format"))
        let csv = try TestKit.writeTemporaryFile("a;b\n", name: "x.csv")
        #expect(try probe(csv) == .noMatch("not an XLSX workbook (no ZIP signature)"))
        let encrypted = try TestKit.writeTemporaryFile(HostileWorkbooks.compoundFile(encrypted: true), name: "secret.xlsx")
        guard case .noMatch(let encryptedReason) = try probe(encrypted) else {
            Issue.record("claimed an encrypted workbook")
            return
        }
        #expect(encryptedReason.contains("encrypted"))
        #expect(FormatRegistry.builtIn.reader(id: "tinkoff-report") != nil)
    }
}

@Suite("Workbooks kept from detection for the read")
struct DetectedWorkbookTests {
    @Test("a workbook detection opened is handed to the read of the same input once; another input opens its own; a use that throws keeps nothing")
    func keptOnce() throws {
        let path = try TestWorkbook.rows(TinkoffFixture.report, sheetName: "broker_rep").writeTemporary(name: "kept.xlsx")
        let input = try SourceInput(path: path)
        let detected = try input.probe.withWorkbook(at: path) { $0 }
        let read = try input.withWorkbook(at: path) { $0 }
        #expect(read === detected)
        let again = try input.withWorkbook(at: path) { $0 }
        #expect(again !== detected)

        // Another input of the same file has a probe of its own: nothing is shared between inputs.
        let other = try SourceInput(path: path)
        _ = try input.probe.withWorkbook(at: path) { $0 }
        let otherRead = try other.withWorkbook(at: path) { $0 }
        #expect(otherRead !== detected)
        #expect(throws: XLSXError.self) { try other.probe.withWorkbook(at: path + ".missing") { _ in () } }

        // A use that throws does not keep its workbook.
        struct Stop: Error {}
        let third = try SourceInput(path: path)
        let thrown = try? third.probe.withWorkbook(at: path) { workbook -> XLSXWorkbook in throw Stop() }
        #expect(thrown == nil)
        #expect(third.probe.takeWorkbook(at: path) == nil)
    }
}

@Suite("Tinkoff broker report: layouts that must be loud or still right")
struct TinkoffLayoutTests {
    @Test("a row before any section heading is rejected; a sheet without sections 1.1 and 2 is not a report")
    func preambleAndNoSections() throws {
        var rows = TinkoffFixture.title
        rows.append([0: "Номер сделки", 4: "Дата"])
        rows.append([0: "1.1 Информация о совершенных и исполненных сделках на конец отчетного периода"])
        let doc = try TinkoffFixture.convert(rows)
        #expect(doc.rejected.map(\.source.row) == [5])
        #expect(doc.rejected.first?.errors.first?.message.contains("before any section heading") == true)

        let plain = try TestWorkbook.rows([[0: "Date", 1: "Amount"], [0: "01.01.2021", 1: 5]]).writeTemporary()
        #expect(throws: InputError.self) { _ = try TestKit.convert(paths: [plain], with: TinkoffReportReader()) }
    }

    @Test("a currency block's heading may carry spaces or lower case; the balance summary ends at the block's header")
    func currencyHeading() throws {
        var rows = TinkoffFixture.title
        rows.append([0: "2. Операции с денежными средствами"])
        rows.append([0: "Валюта", 13: "Входящий остаток на начало периода:"])
        rows.append([0: "RUB", 13: "0"])
        rows.append([0: "Rub "])
        rows.append(TinkoffFixture.row(TinkoffFixture.cashColumns, TinkoffFixture.cashHeaders))
        rows.append(TinkoffFixture.row(TinkoffFixture.cashColumns, ["04.02.2021", "12:00:00", "04.02.2021", "Пополнение счета", "500", "0", "10 шт."]))
        rows.append([0: "10 шт. Итого"])
        let doc = try TinkoffFixture.convert(rows)
        #expect(doc.allTransactions.map { "\($0.type.rawValue) \($0.asset) \($0.amount)" } == ["deposit RUB 500"])
        #expect(doc.skipped.map(\.reason).contains { $0.hasPrefix("balance summary") })
        // A one-cell row that is not a heading is a row of the block, not a new section.
        #expect(doc.rejected.map(\.source.row) == [11])
    }

    @Test("each page of section 4.1 is mapped by its own header; currency deals are known by their code without a name; bond amounts exclude accrued interest")
    func securitiesPagesCurrencyCodesAndBonds() throws {
        let headers = [
            "Номер сделки", "Дата заключения", "Время", "Вид сделки", "Код актива", "Цена за единицу", "Валюта цены",
            "Количество", "Сумма (без НКД)", "НКД", "Сумма сделки"
        ]
        var rows = TinkoffFixture.title
        rows.append([0: "1.1 Информация о совершенных и исполненных сделках на конец отчетного периода"])
        rows.append(Dictionary(uniqueKeysWithValues: headers.enumerated().map { ($0.offset * 5, $0.element as Any) }))
        let deals: [[String]] = [
            ["1", "05.02.2021", "10:00:00", "Покупка", "MSFT", "230", "USD", "1", "230", "0", "230"],
            ["2", "05.02.2021", "10:00:00", "Продажа", "USD000UTSTOM", "76,09", "RUB", "300", "22827", "0", "22827"],
            ["3", "05.02.2021", "10:00:00", "Покупка", "SU26207RMFS9", "1005", "RUB", "1", "1005", "15,2", "1020,2"]
        ]
        for deal in deals { rows.append(Dictionary(uniqueKeysWithValues: deal.enumerated().map { ($0.offset * 5, $0.element as Any) })) }
        rows.append([0: "4.1 Информация о ценных бумагах"])
        rows.append([0: "Сокращенное наименование актива", 21: "Код актива", 36: "ISIN"])
        rows.append([0: "Apple", 21: "AAPL", 36: "US0378331005"])
        rows.append([144: "2 из ", 148: 3])
        rows.append([0: "Сокращенное наименование актива", 25: "Код актива", 40: "ISIN"])
        rows.append([0: "Microsoft", 25: "MSFT", 40: "US5949181045"])
        let doc = try TinkoffFixture.convert(rows)
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        let trades = doc.allTrades
        #expect(trades.map(\.isin) == ["US5949181045", nil, "SU26207RMFS9"])  // a code that is an ISIN is one
        #expect(trades[1].base.text == "USD" && trades[1].quote.text == "RUB")
        #expect(trades[2].amount == ExactDecimal("1005") && trades[2].accruedInterest == ExactDecimal("15.2"))
    }
}

@Suite("T-Bank reports since 2024")
struct TBankReportTests {
    /// A report of the 2024– generation: «АО «ТБанк»», payouts as «Выплата доходов по
    /// корпоративным действиям» with their kind in the note.
    static var report: [[Int: Any]] {
        var rows: [[Int: Any]] = [
            [0: "Брокер: АО «ТБанк», ИНН/КПП 7710140679/771301001"], [0: "Дата расчета: 09.03.2026"],
            [0: "Отчет о сделках и операциях за период 01.01.2024 - 31.12.2024"],
            [0: "2. Операции с денежными средствами"], [0: "RUB"]
        ]
        let c = TinkoffFixture.cashColumns
        rows.append(TinkoffFixture.row(c, TinkoffFixture.cashHeaders))
        let payout = "Выплата доходов по корпоративным действиям"
        rows.append(
            TinkoffFixture.row(
                c,
                [
                    "15.02.2024", "10:00:00", "15.02.2024", payout, 612, "0",
                    "Тип КД: Выплата дохода по облигациям, Наименование: Солид-Лизинг оббП07, ISIN: RU000A105P07, Референс КД: 766163, Дата фиксации: 14-FEB-24, Количество: 24 шт., Выплата на 1 бумагу: 25.5, Валюта:RUB"
                ]))  // row 7
        rows.append(
            TinkoffFixture.row(
                c,
                [
                    "15.02.2024", "10:00:00", "15.02.2024", payout, 1200, "0",
                    "Тип КД: Частичное погашение, Наименование: Солид-Лизинг оббП07, ISIN: RU000A105P07, Количество: 24 шт., Выплата на 1 бумагу: 50, Валюта:RUB"
                ]))
        rows.append(
            TinkoffFixture.row(
                c,
                [
                    "20.07.2024", "10:00:00", "20.07.2024", payout, 276, "0",
                    "Тип КД: Выплата дивидендов, Наименование: ВТБ ао, ISIN: RU000A0JP5V6, Количество: 20000 шт., Валюта:RUB"
                ]))
        rows.append(
            TinkoffFixture.row(
                c,
                [
                    "21.07.2024", "10:00:00", "21.07.2024", payout, 5, "0",
                    "Тип КД: Конвертация, Наименование: X, ISIN: RU0000000000"
                ]))  // row 10: not a payout tradeport knows
        rows.append(TinkoffFixture.row(c, ["22.07.2024", "10:00:00", "22.07.2024", payout, 5, "0", "без типа"]))  // row 11
        rows.append(TinkoffFixture.row(c, ["31.12.2024", "10:00:00", "31.12.2024", "Налог (по итогу года)", "0", 130, nil]))
        return rows
    }

    @Test("detected under the T-Bank name; payouts typed by their note's «Тип КД», with the security; unknown kinds are rejects naming them")
    func corporateActionPayouts() throws {
        let path = try TestWorkbook.rows(Self.report, sheetName: "broker_rep").writeTemporary(name: "tbank.xlsx")
        #expect(TinkoffReportReader().detect(try SourceInput(path: path).probe) == .match)
        let doc = try TinkoffFixture.convert(Self.report)
        let cash = doc.allTransactions
        #expect(cash.map(\.type) == [.coupon, .redemption, .dividend, .tax])
        #expect(cash.map(\.amount.description) == ["612", "1200", "276", "130"])
        #expect(cash.map(\.security) == ["RU000A105P07", "RU000A105P07", "RU000A0JP5V6", nil])
        #expect(doc.rejected.map(\.source.row) == [10, 11])
        #expect(doc.rejected.first?.errors.first?.message.hasPrefix("'Тип КД: Конвертация' is a corporate action tradeport does not know") == true)
        #expect(doc.rejected.last?.errors.first?.message == "a corporate-action payout whose note names no 'Тип КД: …': its kind cannot be told")
    }

    /// A report whose 3.1 moves units without deals: a bond bought and redeemed in full, a fund
    /// converted with no deal, a share whose 3.1 says more went out than its deals sold.
    static var movementsReport: [[Int: Any]] {
        let a = TinkoffFixture.layoutA
        var rows: [[Int: Any]] = [
            [0: "Брокер: АО «ТБанк»"], [0: "Отчет о сделках и операциях за период 01.01.2024 - 31.12.2024"],
            [0: "1.1 Информация о совершенных и исполненных сделках на конец отчетного периода"],
            TinkoffFixture.header(a)
        ]
        rows.append(
            TinkoffFixture.row(
                a,
                [
                    "1", "1", "05.02.2024", "10:00:00", "ММВБ", "TQCB", "Покупка", "Облигация", "RU000A100YD8",
                    "1000", "RUB", "1", "1000", "0", "1000", "RUB", "0", "RUB", "0", "RUB", "0", "RUB", "06.02.2024"
                ]))  // row 5
        rows.append(
            TinkoffFixture.row(
                a,
                [
                    "2", "2", "05.02.2024", "11:00:00", "ММВБ", "TQBR", "Продажа", "Сбербанк", "SBER",
                    "300", "RUB", "1", "300", "0", "300", "RUB", "0", "RUB", "0", "RUB", "0", "RUB", "06.02.2024"
                ]))  // row 6
        rows.append([0: "2. Операции с денежными средствами"])
        rows.append([0: "RUB"])
        let c = TinkoffFixture.cashColumns
        rows.append(TinkoffFixture.row(c, TinkoffFixture.cashHeaders))
        rows.append(
            TinkoffFixture.row(
                c,
                [
                    "27.09.2024", "00:00:00", "27.09.2024", "Выплата доходов по корпоративным действиям", 1000, "0",
                    "Тип КД: Погашение в уст. срок, Наименование: Облигация, ISIN: RU000A100YD8, Количество: 1 шт., Выплата на 1 бумагу: 1000, Валюта:RUB"
                ]))  // row 10
        rows.append([0: "3.1 Движение по ценным бумагам инвестора"])
        let p = [0, 13, 20, 26, 36, 46, 56]
        rows.append(
            TinkoffFixture.row(p, ["Сокращенное наименование актива", "Код актива", "ISIN", "Входящий остаток", "Зачисление", "Списание", "Исходящий остаток"]))
        rows.append(TinkoffFixture.row(p, ["Облигация", "RU000A100YD8", "RU000A100YD8", 0, 1, 1, 0]))  // row 13
        rows.append(TinkoffFixture.row(p, ["FinEx фонд", "FXDM", nil, 600, 0, 600, 0]))  // row 14
        rows.append(TinkoffFixture.row(p, ["FinEx фонд", "IE00BMDKNM37", "IE00BMDKNM37", 0, 600, 0, 600]))  // row 15
        rows.append(TinkoffFixture.row(p, ["Сбербанк", "SBER", "RU0009029540", 10, 0, 3, 7]))  // row 16: its deal sold 1
        rows.append(TinkoffFixture.row(p, ["ВТБ", "VTBR", "RU000A0JP5V6", 5, 2, 2, 5]))  // row 17: in and out alike
        return rows
    }

    @Test("3.1's units without deals: a full redemption's at its payout, a security no row touches at the period's end; others stay differences")
    func movementsFromPositions() throws {
        let doc = try TinkoffFixture.convert(Self.movementsReport)
        #expect(doc.rejected.isEmpty, "\(doc.rejected)")
        let moved = doc.portfolios.flatMap(\.movements).sorted { $0.source.row < $1.source.row }
        #expect(
            moved.map { "\($0.direction.rawValue) \($0.asset) \($0.quantity) \($0.reason.rawValue) \($0.time) \($0.source.row)" } == [
                "out RU000A100YD8 1 redemption 2024-09-26T21:00:00Z 13",
                "out FXDM 600 unstated 2024-12-31T20:59:59Z 14",
                "in IE00BMDKNM37 600 unstated 2024-12-31T20:59:59Z 15"
            ])
        #expect(moved[0].note == "redeemed in full (row 10: Погашение в уст. срок); section 3.1: out 1")
        #expect(moved[2].isin == "IE00BMDKNM37" && moved[1].isin == nil && moved[1].name == "FinEx фонд")
        func reason(_ row: Int) -> String? { doc.skipped.first { $0.source.row == row }?.reason }
        #expect(reason(16)?.hasSuffix("in 0 and out 2 beyond its deals, which no row of the report explains") == true)
        #expect(reason(17)?.hasSuffix("2 came in and went out without a deal: no change in the end") == true)
        var differences: [String: String] = [:]
        for c in doc.reconciliation where !c.reconciles { differences[c.asset] = c.difference.description }
        // SBER: 3.1 says 3 went out, its deals sold 1. RUB: moved, but the report prints no cash balances.
        #expect(differences == ["SBER": "2", "RUB": "300"])
        let source = doc.sources[0]
        #expect(source.rows == source.operations + source.skipped + source.rejected + source.duplicates)
    }

    @Test("without a period in the title, units 3.1 alone moves cannot be dated: a skip saying so, and the difference stays")
    func movementsWithoutAPeriod() throws {
        var rows = Self.movementsReport
        rows[1] = [0: "Отчет о сделках и операциях"]
        let doc = try TinkoffFixture.convert(rows)
        #expect(doc.portfolios.flatMap(\.movements).map(\.asset.text) == ["RU000A100YD8"])
        #expect(doc.skipped.first { $0.source.row == 14 }?.reason.hasSuffix("out 600 without a deal, but the report names no period to date it by") == true)
        #expect(doc.reconciliation.filter { !$0.reconciles }.map(\.asset).sorted() == ["FXDM", "IE00BMDKNM37", "RUB", "SBER"])
    }

    @Test("deals held in the scratch file read exactly as deals held on the heap: the report built here, and the real ones when present")
    func dealsHeldEitherWay() throws {
        var paths = [try TestWorkbook.rows(TinkoffFixture.report, sheetName: "broker_rep").writeTemporary(name: "report.xlsx")]
        let shared = URL(fileURLWithPath: Self.realworld).deletingLastPathComponent().deletingLastPathComponent().path
        for file in ((try? FileManager.default.contentsOfDirectory(atPath: Self.realworld)) ?? []).sorted() where file.hasSuffix(".xlsx") {
            paths.append(Self.realworld + "/" + file)
        }
        if FileManager.default.fileExists(atPath: shared + "/samples/tinkoff-broker-report.xlsx") {
            paths.append(shared + "/samples/tinkoff-broker-report.xlsx")
        }
        var spooling = TinkoffReportReader()
        spooling.dealsOnHeap = 0
        var deals = 0
        for path in paths {
            let onHeap = try TestKit.convert(paths: [path], with: TinkoffReportReader())
            let spooled = try TestKit.convert(paths: [path], with: spooling)
            #expect(spooled == onHeap, "\(path)")
            deals += onHeap.allTrades.count
        }
        #expect(deals > 0)
    }

    static let realworld = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/realworld/tinkoff").path

    @Test(
        "the real T-Bank reports are detected, and their payouts read (counts worked out from the files' notes)",
        .enabled(if: FileManager.default.fileExists(atPath: realworld + "/tbank-2024-full-year.xlsx"), "../shared/realworld is absent"))
    func realPayouts() throws {
        for (file, expected) in [
            ("tbank-2021-full-year.xlsx", ["dividend": 7]),
            ("tbank-2024-full-year.xlsx", ["coupon": 177, "dividend": 53, "redemption": 16])
        ] {
            let path = Self.realworld + "/" + file
            #expect(TinkoffReportReader().detect(try SourceInput(path: path).probe) == .match, "\(file)")
            let doc = try TestKit.convert(paths: [path], with: TinkoffReportReader())
            var counts: [String: Int] = [:]
            for t in doc.allTransactions where [.coupon, .dividend, .redemption].contains(t.type) {
                counts[t.type.rawValue, default: 0] += 1
                #expect(t.security != nil, "\(file): \(t.source) has no security")
            }
            #expect(counts == expected, "\(file)")
            #expect(!doc.rejected.contains { $0.raw.contains("Выплата доходов по корпоративным действиям") }, "\(file)")
        }
    }
}

/// Every real report checked against the balances it prints: the two genuine T-Bank reports agree
/// (a bond redeemed in full leaves as a movement at its redemption); the files edited by hand,
/// anonymised or invented differ by exactly these amounts.
@Suite("Tinkoff reports against their own balances")
struct TinkoffReconciliationTests {
    static let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared").path

    /// Per file: how many balances it prints, the ones that do not reconcile with their difference,
    /// and the movements (changes of positions without money) read from it.
    static let expected: [(file: String, checks: Int, differences: [String: String], movements: [String], why: String)] = [
        ("realworld/tinkoff/tbank-2021-full-year.xlsx", 16, [:], [], "genuine: everything reconciles"),
        (
            "realworld/tinkoff/tbank-2024-full-year.xlsx", 68, [:],
            ["in MSFT 2 unstated 860", "out MSFT 2 unstated 861", "out RU000A100YD8 1 redemption 886"],
            "genuine; Нафтатранс плюс-БО-02 redeemed in full (Погашение в уст. срок, 1 шт.) leaves as a movement; MSFT moved between two places of custody"
        ),
        (
            "realworld/tinkoff/tinkoff-2020-01-edited.xlsx", 12,
            ["RUB": "-46280.45", "USD": "-607.67", "GAZP": "50", "GMKN": "2"], ["out LKOH 2 unstated 49"],
            "edited by hand: page 2 (deals and their cash) removed; LKOH, whose deals were all on it, is left with 3.1's units alone"
        ),
        ("realworld/tinkoff/tinkoff-2021-template-buysell.xlsx", 5, ["RUB": "-222", "USD": "-99"], [], "a template: balances 0, invented deals"),
        (
            "realworld/tinkoff/tinkoff-2021-template-coupon.xlsx", 4, ["RUB": "10"], ["out RU0000000001 1 redemption 34"],
            "a template: invented numbers; the bond redeemed (Погашение облигации, 1 шт.) leaves as a movement"
        ),
        ("realworld/tinkoff/tinkoff-2021-template-dividend.xlsx", 0, [:], [], "a template without balances"),
        (
            "realworld/tinkoff/tinkoff-2023-otc-fx.xlsx", 28, ["RUB": "-6.99", "USD": "-0.01"],
            [
                "in IE00BD3QHZ91 3000 unstated 96", "in WBD 0.84 unstated 105", "out US50202M1027 4 unstated 110", "out WBD 0.84 unstated 111",
                "out FXDM 600 unstated 114", "in IE00BMDKNM37 600 unstated 115", "in US50202M1027 4 unstated 116", "in US02156B1035 1 unstated 122",
                "out US02156B1035 1 unstated 123", "out US16939P1066 5 unstated 124", "out FXCN 30 unstated 125", "in IE00BD3QFB18 30 unstated 126",
                "out FXUS 3000 unstated 127"
            ],
            "edited; FinEx funds converted to their new ISINs and securities moved between places of custody, without deals"
        ),
        (
            "samples/tinkoff-broker-report.xlsx", 6, ["RUB": "42725.61", "USD": "1943.79", "AAPL": "3", "MSFT": "-3", "MVID": "-14", "GIS": "1"],
            ["in GIS 1 unstated 50"], "anonymised: the balances were zeroed"
        )
    ]

    @Test("each report's balances: reconciled, or the exact differences", arguments: expected.indices)
    func reconciliation(_ index: Int) throws {
        let e = Self.expected[index]
        let path = Self.shared + "/" + e.file
        guard FileManager.default.fileExists(atPath: path) else { return }
        let doc = try TestKit.convert(paths: [path], with: TinkoffReportReader())
        #expect(doc.rejected.isEmpty, "\(e.file)")
        #expect(doc.reconciliation.count == e.checks, "\(e.file)")
        var differences: [String: String] = [:]
        for c in doc.reconciliation where !c.reconciles { differences[c.asset] = c.difference.description }
        #expect(differences == e.differences, "\(e.file): \(e.why)")
        #expect(doc.warnings.filter { $0.code.hasPrefix("unreconciled-") }.count == e.differences.count, "\(e.file)")
        let movements = doc.portfolios.flatMap(\.movements).sorted { $0.source.row < $1.source.row }
        #expect(movements.map { "\($0.direction.rawValue) \($0.asset) \($0.quantity) \($0.reason.rawValue) \($0.source.row)" } == e.movements, "\(e.file)")
    }

    @Test(
        "a bond redeemed in full leaves at its redemption; securities no deal touches move at the period's end",
        .enabled(if: FileManager.default.fileExists(atPath: shared + "/realworld/tinkoff/tbank-2024-full-year.xlsx"), "../shared/realworld is absent"))
    func movementsInDetail() throws {
        let doc = try TestKit.convert(paths: [Self.shared + "/realworld/tinkoff/tbank-2024-full-year.xlsx"], with: TinkoffReportReader())
        let bond = try #require(doc.portfolios.flatMap(\.movements).first { $0.asset.text == "RU000A100YD8" })
        #expect(bond.time.description == "2024-09-26T21:00:00Z")  // the payout's date, 27.09.2024 in Moscow
        #expect(bond.isin == "RU000A100YD8" && bond.name == "Нафтатранс плюс-БО-02")
        #expect(bond.note == "redeemed in full (row 725: Погашение в уст. срок); section 3.1: out 1")
        let payout = try #require(doc.allTransactions.first { $0.source.row == 725 })
        #expect(payout.type == .redemption && payout.amount == ExactDecimal(1996) && payout.security == "RU000A100YD8")
        let msft = doc.portfolios.flatMap(\.movements).filter { $0.asset.text == "MSFT" }
        #expect(Set(msft.map(\.time.description)) == ["2024-12-31T20:59:59Z"])  // 31.12.2024 23:59:59 in Moscow: the period's end
        #expect(msft.allSatisfy { $0.isin == "US5949181045" })
    }
}
