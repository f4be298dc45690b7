// The deals of the real Tinkoff / T-Bank reports in ../shared, checked against what this file works
// out from each workbook's own cells.
//
// What is independent of the reader: the expectations are read with the low-level XLSX reader only
// (rows, cells, a number cell's value rounded to the 15 significant digits a double holds, date
// serials) and computed with Foundation's Decimal and Calendar. Nothing of TradeportFormats' Tinkoff
// reader is used: not its tables, header aliases, value parsing or bond arithmetic. The document is
// made by converting the file without naming its format, as `tradeport convert FILE` would.

import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit
import TradeportXLSX

@Suite("Real Tinkoff reports: deals worked out from the sheets")
struct TinkoffRealDealsTests {
    static let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared").path

    /// The seven real reports and the sample, relative to ../shared.
    static let files = [
        "realworld/tinkoff/tinkoff-2020-01-edited.xlsx",
        "realworld/tinkoff/tinkoff-2021-template-buysell.xlsx",
        "realworld/tinkoff/tinkoff-2021-template-coupon.xlsx",
        "realworld/tinkoff/tinkoff-2021-template-dividend.xlsx",
        "realworld/tinkoff/tinkoff-2023-otc-fx.xlsx",
        "realworld/tinkoff/tbank-2021-full-year.xlsx",
        "realworld/tinkoff/tbank-2024-full-year.xlsx",
        "samples/tinkoff-broker-report.xlsx"
    ]

    @Test(
        "every executed deal of section 1.1 becomes the trade its cells say; nothing is rejected",
        .enabled(if: FileManager.default.fileExists(atPath: shared), "../shared is absent"),
        arguments: files)
    func dealsMatchTheSheet(file: String) throws {
        let path = Self.shared + "/" + file
        guard FileManager.default.fileExists(atPath: path) else { return }  // this one file is absent: nothing to check

        let deals = try TinkoffSheet.deals(in: path)
        let prepared = try Inputs.prepare([InputRequest(path: path)], registry: .builtIn)
        #expect(prepared.map { $0.reader.id } == ["tinkoff-report"], "\(file): detection picked another format")
        let (doc, _) = try Inputs.document(prepared, options: ConversionOptions())

        let rejects = doc.rejected.prefix(5).map { "row \($0.source.row): \($0.errors.map(\.message))" }
        #expect(doc.rejected.isEmpty, "\(file): \(doc.rejected.count) rejected, first \(rejects)")
        let trades = doc.allTrades
        #expect(trades.count == deals.count, "\(file)")
        #expect(Set(trades.map(\.source.row)) == Set(deals.map(\.row)), "\(file): trades from other rows than the deals")

        let tradesByRow = Dictionary(grouping: trades, by: \.source.row)
        for deal in deals {
            guard let found = tradesByRow[deal.row], found.count == 1, let trade = found.first else {
                Issue.record("\(file) row \(deal.row): \(tradesByRow[deal.row]?.count ?? 0) trades instead of one")
                continue
            }
            Self.check(trade, against: deal, at: "\(file) row \(deal.row)")
        }
    }

    static func check(_ trade: Trade, against deal: TinkoffSheet.Deal, at place: String) {
        #expect(trade.externalId == deal.externalId, "\(place)")
        #expect(trade.side == deal.side, "\(place)")
        #expect(trade.base.text == deal.base, "\(place)")
        #expect(trade.quote.text == deal.quote, "\(place)")
        #expect(decimal(trade.quantity) == deal.quantity, "\(place): quantity")
        #expect(decimal(trade.price) == deal.price, "\(place): price")
        #expect(decimal(trade.amount) == deal.amount, "\(place): amount")
        #expect(decimal(trade.accruedInterest) == deal.accruedInterest, "\(place): accrued interest")
        #expect(decimal(trade.pricePercent) == deal.pricePercent, "\(place): price in percent")
        #expect(decimal(trade.nominal) == deal.nominal, "\(place): nominal")
        #expect(trade.isin == deal.isin, "\(place)")
        #expect(trade.time == deal.time, "\(place)")
        #expect(trade.settlementDate == deal.settlementDate, "\(place)")

        // Only the broker's fee: the exchange and clearing fees the reports print are part of it.
        let fees = trade.fees.map { "\($0.kind.rawValue) \($0.amount) \($0.currency)" }
        if let fee = deal.brokerFee {
            #expect(trade.fees.count == 1, "\(place): fees \(fees)")
            if let only = trade.fees.first, trade.fees.count == 1 {
                #expect(
                    only.kind == .broker && only.currency.text == fee.currency && decimal(only.amount) == fee.amount,
                    "\(place): fees \(fees), expected broker \(fee.amount) \(fee.currency)")
            }
        } else {
            #expect(trade.fees.isEmpty, "\(place): fees \(fees), expected none")
        }
    }

    /// A canonical decimal as a Foundation Decimal, to compare by value with the expectations.
    static func decimal(_ value: ExactDecimal?) -> Decimal? {
        value.flatMap { Decimal(string: $0.description, locale: Locale(identifier: "en_US_POSIX")) }
    }
}

/// Reads a report's deals from its sheet `broker_rep`, by the report's printed structure alone.
enum TinkoffSheet {
    /// A cell's value: its text, trimmed (a number cell: its value to 15 significant digits), and
    /// for a cell in a date or time style, the date and time its serial stands for.
    struct Value {
        var text: String
        var isNumber: Bool
        var dateTime: XLSXDateTime?
    }

    /// A row's non-empty cells by their 0-based column.
    struct Row {
        var number: Int
        var cells: [(column: Int, value: Value)]
    }

    /// A data row of a table: its values by the text of the header above them.
    struct TableRow {
        var number: Int
        var byHeader: [String: Value] = [:]

        subscript(_ header: String) -> Value? { byHeader[TinkoffSheet.normalized(header)] }

        /// The value under the header that starts with `prefix` («Дата расчетов», «Дата расчетов план/факт»).
        func value(underHeaderStartingWith prefix: String) -> Value? {
            byHeader.first { $0.key.hasPrefix(TinkoffSheet.normalized(prefix)) }?.value
        }
    }

    /// A deal as the test expects its trade.
    struct Deal {
        var row: Int
        var externalId: String?
        var side: TradeSide
        var base: String
        var quote: String
        var quantity: Decimal
        var price: Decimal
        var amount: Decimal
        var accruedInterest: Decimal?
        var brokerFee: (amount: Decimal, currency: String)?
        var isin: String?
        var time: Timestamp
        var settlementDate: CalendarDate?
        var pricePercent: Decimal?
        var nominal: Decimal?
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Header texts are compared without any whitespace (they carry hyphenation line breaks, and the
    /// 2021 templates pad every string with `\n`) and in lower case.
    static func normalized(_ text: String) -> String {
        text.filter { !$0.isWhitespace }.lowercased()
    }

    // MARK: The sheet's rows

    static func rows(of path: String) throws -> [Row] {
        let workbook = try XLSXWorkbook(path: path)
        let sheet = try workbook.sheet(named: "broker_rep")
        var rows: [Row] = []
        try workbook.readRows(of: sheet) { row in
            var cells: [(column: Int, value: Value)] = []
            for cell in row.cells {
                let value: Value
                switch cell.kind {
                case .number:
                    value = Value(text: cell.number ?? cell.text, isNumber: true)
                case .date:
                    value = Value(
                        text: cell.number ?? cell.text, isNumber: true,
                        dateTime: XLSXDateTime(serial: cell.bytes, system: workbook.dateSystem))
                default:
                    value = Value(text: cell.text.trimmingCharacters(in: .whitespacesAndNewlines), isNumber: false)
                }
                if !value.text.isEmpty { cells.append((cell.column, value)) }
            }
            if !cells.isEmpty { rows.append(Row(number: row.number, cells: cells)) }
            return true
        }
        return rows
    }

    /// The section a heading row opens («1.1», «2», «4.1»): one text cell, in column A, starting with
    /// the section's number and a space.
    static func sectionNumber(openedBy row: Row) -> String? {
        guard row.cells.count == 1, let only = row.cells.first, only.column == 0, !only.value.isNumber,
            only.value.text.range(of: #"^[0-9]+(\.[0-9]+)?\.?\s"#, options: .regularExpression) != nil
        else { return nil }
        let number = only.value.text.prefix { !$0.isWhitespace }
        return String(number.hasSuffix(".") ? number.dropLast() : number)
    }

    /// A page footer: «N из » and the page count.
    static func isFooter(_ row: Row) -> Bool {
        row.cells.contains { !$0.value.isNumber && $0.value.text.range(of: #"^[0-9]+\s*из$"#, options: .regularExpression) != nil }
            && row.cells.contains { $0.value.isNumber }
    }

    // MARK: Sections 1.1, 3.1 and 4.1

    /// The deals of section 1.1 (repo legs left out), with what sections 3.1 and 4.1 say of their securities.
    static func deals(in path: String) throws -> [Deal] {
        var section = ""
        var headers: [Int: String] = [:]  // a header's column → its normalized text
        var dealRows: [TableRow] = []
        var isins: [String: String] = [:]  // «Код актива» → «ISIN» (4.1; 3.1 in the 2024– layout)
        var nominals: [String: Decimal] = [:]  // «Код актива» → «Номинал» (4.1 up to 2021)
        var tickers = Tickers()  // the ticker of an ISIN, or of a name (3.1, 4.1), for deals keyed by ISIN

        for row in try rows(of: path) {
            if let opened = sectionNumber(openedBy: row) {
                section = opened
                headers = [:]
                continue
            }
            if isFooter(row) { continue }
            let texts = row.cells.map { $0.value.isNumber ? "" : normalized($0.value.text) }
            if texts.contains("номерсделки") || texts.contains("кодактива") {
                // A header row (again after a page break, perhaps with its columns moved).
                headers = [:]
                for cell in row.cells where !cell.value.isNumber { headers[cell.column] = normalized(cell.value.text) }
                continue
            }
            guard ["1.1", "3.1", "4.1"].contains(section) else { continue }

            // A value sits in the column its header starts in.
            var tableRow = TableRow(number: row.number)
            for cell in row.cells {
                guard let header = headers[cell.column] else {
                    Issue.record("\(path) row \(row.number) (section \(section)): '\(cell.value.text)' in column \(cell.column), where no header starts")
                    continue
                }
                tableRow.byHeader[header] = cell.value
            }

            if section == "1.1" {
                dealRows.append(tableRow)
                continue
            }
            guard let code = tableRow["Код актива"]?.text else { continue }
            if !isISIN(code) {
                if let isin = tableRow["ISIN"]?.text { tickers.byIsin[isin] = code }
                if let name = securityName(tableRow) { tickers.byName[name] = code }
            }
            if let isin = tableRow["ISIN"]?.text {
                if let known = isins[code], known != isin {
                    Issue.record("\(path) row \(row.number): code \(code) is \(known) and \(isin)")
                } else {
                    isins[code] = isin
                }
            }
            if section == "4.1", let nominal = try number(tableRow["Номинал"], at: row.number), nominal > 0, nominals[code] == nil {
                nominals[code] = nominal
            }
        }
        return try dealRows.compactMap { try deal($0, isins: isins, nominals: nominals, tickers: tickers) }
    }

    /// What 3.1 and 4.1 call a security by: a deal made off exchange names it by its ISIN, and is
    /// expected under the ticker the report gives that ISIN (or the deal's name), so that one security
    /// is one asset.
    struct Tickers {
        var byIsin: [String: String] = [:]
        var byName: [String: String] = [:]
    }

    /// «Сокращенное наименование актива» (2020–2024; 2023's 1.1 cuts it to «Сокращенное наименование»),
    /// «Наименование актива» (2024–).
    static func securityName(_ row: TableRow) -> String? {
        row["Наименование актива"]?.text ?? row.value(underHeaderStartingWith: "Сокращенное наименование")?.text
    }

    /// The deal of one row of 1.1, or nil for a repo leg.
    static func deal(_ row: TableRow, isins: [String: String], nominals: [String: Decimal], tickers: Tickers) throws -> Deal? {
        func needed(_ header: String) throws -> Value {
            guard let found = row[header] else { throw Unreadable("row \(row.number): no «\(header)»") }
            return found
        }
        func neededNumber(_ header: String) throws -> Decimal {
            guard let found = try number(needed(header), at: row.number) else { throw Unreadable("row \(row.number): no «\(header)»") }
            return found
        }

        let side: TradeSide
        switch try needed("Вид сделки").text {
        case "Покупка": side = .buy
        case "Продажа": side = .sell
        case let kind where kind.hasPrefix("РЕПО"): return nil
        case let kind: throw Unreadable("row \(row.number): «Вид сделки» '\(kind)'")
        }
        let code = try needed("Код актива").text
        let quantity = try neededNumber("Количество")
        let printedPrice = try neededNumber("Цена за единицу")
        let amount = try neededNumber("Сумма (без НКД)")
        let priceCurrency = try needed("Валюта цены").text
        let settlementCurrency = try needed("Валюта расчетов").text
        let accruedInterest = try number(row["НКД"], at: row.number)
        let fee = try number(row["Комиссия брокера"], at: row.number)

        var deal = Deal(
            row: row.number, externalId: row["Номер сделки"]?.text, side: side, base: code.uppercased(), quote: priceCurrency,
            quantity: quantity, price: printedPrice, amount: amount,
            accruedInterest: accruedInterest == 0 ? nil : accruedInterest,
            isin: isins[code] ?? (isISIN(code) ? code : nil),
            time: try moscowTime(day: needed("Дата заключения"), time: needed("Время"), row: row.number),
            settlementDate: try settlementDate(row.value(underHeaderStartingWith: "Дата расчетов"), row: row.number))

        if let fee, fee != 0 {
            guard let currency = row["Валюта комиссии"]?.text else { throw Unreadable("row \(row.number): a broker fee without its currency") }
            deal.brokerFee = (fee, currency)
        }

        if priceCurrency == "%" {
            // A bond quoted in percent of its nominal: the nominal as 4.1 prints it, else as the deal's
            // amount implies it (amount = quantity × nominal × percent ÷ 100), to the kopeck.
            let nominal = nominals[code] ?? rounded(amount * 100 / (quantity * printedPrice), places: 2)
            deal.quote = settlementCurrency
            deal.pricePercent = printedPrice
            deal.nominal = nominal
            deal.price = nominal * printedPrice / 100
            let difference = (deal.price * quantity - amount).magnitude
            #expect(difference <= Decimal(1) / 100, "row \(row.number): \(deal.price) × \(quantity) is not the amount \(amount)")
        } else if code.range(of: #"^[A-Z]{3}000[A-Z0-9]{3}TO[DM]$"#, options: .regularExpression) != nil {
            // A currency deal (USD000UTSTOM, «USDRUB_TOM»): the currency bought or sold.
            deal.base = String(code.prefix(3))
        }
        if isISIN(code), let ticker = tickers.byIsin[code] ?? securityName(row).flatMap({ tickers.byName[$0] }) {
            deal.base = ticker.uppercased()
        }
        return deal
    }

    // MARK: Values

    /// A number cell's value, or a text's with a decimal comma or point (spaces between digit groups
    /// allowed); nil for no value.
    static func number(_ value: Value?, at row: Int) throws -> Decimal? {
        guard let value else { return nil }
        let plain = value.text.filter { !$0.isWhitespace }.replacingOccurrences(of: ",", with: ".")
        guard plain.range(of: #"^-?[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil,
            let number = Decimal(string: plain, locale: Locale(identifier: "en_US_POSIX"))
        else { throw Unreadable("row \(row): '\(value.text)' is not a number") }
        return number
    }

    static func rounded(_ value: Decimal, places: Int) -> Decimal {
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, places, .plain)
        return result
    }

    /// Two letters, nine letters or digits, a check digit.
    static func isISIN(_ code: String) -> Bool {
        code.range(of: #"^[A-Z]{2}[A-Z0-9]{9}[0-9]$"#, options: .regularExpression) != nil
    }

    /// A date cell's day, or `DD.MM.YYYY`.
    static func calendarDay(_ value: Value, row: Int) throws -> (year: Int, month: Int, day: Int) {
        if let date = value.dateTime { return (date.year, date.month, date.day) }
        let parts = value.text.split(separator: ".").map { Int($0) }
        guard parts.count == 3, let day = parts[0], let month = parts[1], let year = parts[2] else {
            throw Unreadable("row \(row): '\(value.text)' is not a date")
        }
        return (year, month, day)
    }

    /// The time of day of a time cell (in the templates a whole date and time: its time part), or `HH:MM:SS`.
    static func clockTime(_ value: Value, row: Int) throws -> (hour: Int, minute: Int, second: Int) {
        if let date = value.dateTime { return (date.hour, date.minute, date.second) }
        let parts = value.text.split(separator: ":").map { Int($0) }
        guard parts.count == 3, let hour = parts[0], let minute = parts[1], let second = parts[2] else {
            throw Unreadable("row \(row): '\(value.text)' is not a time")
        }
        return (hour, minute, second)
    }

    /// «Дата заключения» and «Время», in Moscow time, as an instant.
    static func moscowTime(day dayValue: Value, time timeValue: Value, row: Int) throws -> Timestamp {
        let (year, month, day) = try calendarDay(dayValue, row: row)
        let (hour, minute, second) = try clockTime(timeValue, row: row)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Europe/Moscow"))
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        let date = try #require(calendar.date(from: components), "row \(row)")
        return Timestamp(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded()))
    }

    /// «Дата расчетов»: a date, or `plan / fact` (the fact: the last date given).
    static func settlementDate(_ value: Value?, row: Int) throws -> CalendarDate? {
        guard let value else { return nil }
        var dayValue = value
        if value.dateTime == nil {
            let dates = value.text.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard let fact = dates.last else { return nil }
            dayValue = Value(text: fact, isNumber: false)
        }
        let (year, month, day) = try calendarDay(dayValue, row: row)
        guard let date = CalendarDate(year: year, month: month, day: day) else { throw Unreadable("row \(row): '\(value.text)' is not a date") }
        return date
    }
}
