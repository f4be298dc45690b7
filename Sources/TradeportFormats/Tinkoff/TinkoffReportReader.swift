import TradeportCore
import TradeportXLSX

/// Walks the report's rows: sections, header rows, footers, and the rows of each table.
final class TinkoffReportReader {
    private enum Section {
        case preamble
        case executedTrades, pendingTrades, terminatedTrades, repoChanges
        case cash
        case reference(String)
    }

    /// What is held until the securities table (section 4.1, near the end) has been read: a record
    /// already made (with its raw text in `recordRaw`), or a trade or cash row kept compactly
    /// (its cells' columns, kinds and bytes) to be read at the end.
    private enum Held {
        case record(SourceRecord, rawEnd: Int)
        /// A trade read while the sheet streams by, waiting for its ISIN.
        case trade(Trade, ticker: String?, rawEnd: Int)
        case cashRow(number: Int, map: Int, currency: AssetCode, cellsEnd: Int)
    }

    private var locations: RowLocations
    private var zone: SourceTimeZone.Converter
    private let dateSystem: XLSXWorkbook.DateSystem
    private let codes = AssetCodeCache()

    private var section = Section.preamble
    /// Why a row of the current reference section (3.1, 4.1, …) is skipped, naming the section.
    private var referenceSkipReason = ""
    private var tradeMap: TableMap? { tradeMapIndex.map { tradeMaps[$0] } }
    private var cashMap: TableMap? { cashMapIndex.map { cashMaps[$0] } }
    private var tradeMapIndex: Int?
    private var cashMapIndex: Int?
    private var inBalanceSummary = false
    private var currency: AssetCode?
    /// The folded texts of the current reference table's header row (empty for a cell that is not text).
    private var referenceHeader: [[UInt8]]?
    /// A cell's folded text, reused from row to row.
    private var folded: [UInt8] = []
    private var securitiesMap: TableMap?

    private var tradeRow = TableRow<TradeField>()
    private var cashRow = TableRow<CashField>()
    private var securityRow = TableRow<SecurityField>()

    private var held: [Held] = []
    private var recordRaw = ChunkedArray<UInt8>()
    /// Per held cell: column (14 bits), kind (3 bits), length (15 bits; longer ones in `longLengths`).
    private var heldCells = ChunkedArray<UInt32>()
    private var longLengths: [Int: Int] = [:]
    private var heldBytes = ChunkedArray<UInt8>()
    private var tradeMaps: [TableMap] = []
    private var cashMaps: [TableMap] = []
    /// Set while the held rows are read and emitted at the end.
    private var emit: RecordHandler?
    private var isinByTicker: [String: String] = [:]
    private var tickerBySecurityName: [String: String] = [:]
    private var tickerByTradeName: [String: String] = [:]

    init(locations: RowLocations, zone: SourceTimeZone, dateSystem: XLSXWorkbook.DateSystem) {
        self.locations = locations
        self.zone = zone.makeConverter()
        self.dateSystem = dateSystem
    }

    // MARK: - Structure

    func handle(_ row: XLSXRow) throws {
        if row.cells.count <= 3 && Self.isFooter(row) { return }
        if row.cells.count == 1, let heading = Self.sectionNumber(row.cells[0]) {
            enter(section: heading, title: row.cells[0].text)
            return
        }
        switch section {
        case .preamble:
            // The title block (broker, dates, investor) is one text cell a line; anything else
            // before the first section is a layout tradeport does not know, and said so.
            if row.cells.count == 1 && row.cells[0].kind == .string { return }
            try reject(row, [FieldError(column: nil, field: nil, message: "a row before any section heading (1.1 Информация о совершенных и исполненных сделках…, 2. Операции с денежными средствами, …): the layout is not one tradeport knows")])
        case .executedTrades, .pendingTrades, .terminatedTrades, .repoChanges:
            if Self.has(row, Self.dealNumberHeader) {
                tradeMapIndex = mapIndex(row, TradeField.table, &tradeMaps, &tradeLayouts)
                return
            }
            try tradeRow(row)
        case .cash:
            try cashSectionRow(row)
        case .reference(let number):
            try referenceRow(row, section: number)
        }
    }

    /// A header row's texts and columns: pages repeat a few layouts, each mapped once.
    private struct Layout: Hashable {
        let column: Int
        let text: [UInt8]
    }
    private var tradeLayouts: [[Layout]: Int] = [:]
    private var cashLayouts: [[Layout]: Int] = [:]

    /// The index in `maps` of the map of header `row` (a layout seen before keeps its map, and the
    /// header row messages name is the first one with that layout).
    private func mapIndex(_ row: XLSXRow, _ fields: [TableField], _ maps: inout [TableMap], _ known: inout [[Layout]: Int]) -> Int {
        let texts = TinkoffHeader.foldedTexts(row)
        let layout = texts.map { Layout(column: $0.column, text: $0.text) }
        if let index = known[layout] { return index }
        maps.append(TableMap(fields: fields, headerRow: row.number, texts: texts))
        known[layout] = maps.count - 1
        return maps.count - 1
    }

    /// Whether the sheet had a section tradeport reads (1.1 or 2): a workbook without one is not
    /// a report of this kind, whatever its title says.
    private(set) var sawOperationsSection = false

    private func enter(section number: String, title: String) {
        if number == "1.1" || number == "2" { sawOperationsSection = true }
        tradeMapIndex = nil
        cashMapIndex = nil
        inBalanceSummary = false
        currency = nil
        referenceHeader = nil
        securitiesMap = nil
        switch number {
        case "1.1": section = .executedTrades
        case "1.2": section = .pendingTrades
        case "1.3": section = .terminatedTrades
        case "1.4": section = .repoChanges
        case "2": section = .cash
        default:
            section = .reference(number)
            let shown = title.count > 60 ? String(title.prefix(60)) + "…" : title
            referenceSkipReason = "not an operation: a row of section \(shown.trimmedOfSpaces)"
        }
    }

    /// A page footer: `N из ` (the page count sits in another cell).
    private static func isFooter(_ row: XLSXRow) -> Bool {
        row.cells.contains { cell in
            guard cell.kind == .string else { return false }
            let b = cell.bytes
            var i = 0
            while i < b.count, b[i] &- 48 < 10 { i += 1 }
            guard i > 0, i < b.count, b[i] == 0x20 else { return false }
            // "из" in UTF-8, then only spaces.
            guard i + 5 <= b.count, b[i + 1] == 0xD0, b[i + 2] == 0xB8, b[i + 3] == 0xD0, b[i + 4] == 0xB7 else { return false }
            return b[(i + 5)...].allSatisfy { $0 == 0x20 }
        }
    }

    /// The number of a section heading (`1.1 Информация…` → `1.1`, `2. Операции…` → `2`).
    private static func sectionNumber(_ cell: XLSXCell) -> String? {
        guard cell.kind == .string, cell.column == 0, let first = cell.bytes.first, first &- 48 < 10 else { return nil }
        let text = cell.text
        let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let rest = text.dropFirst(number.count)
        guard rest.first == " ", let letter = rest.dropFirst().first(where: { $0 != " " }), letter.isUppercase else { return nil }
        var n = String(number)
        if n.hasSuffix(".") { n.removeLast() }
        let parts = n.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) }) else { return nil }
        return n
    }

    private static let dealNumberHeader = Array("номерсделки".utf8)
    private static let operationHeader = Array("операция".utf8)
    private static let buy = Array("покупка".utf8)
    private static let sell = Array("продажа".utf8)
    private static let repo = Array("репо".utf8)
    private static let currencyColumnHeader = Array("валюта".utf8)
    private static let planned = Array("план".utf8)

    /// Whether a string cell of `row` is the header text `folded`.
    private static func has(_ row: XLSXRow, _ folded: [UInt8]) -> Bool {
        row.cells.contains { $0.kind == .string && $0.bytes.count < 3 * folded.count && HeaderText.matches($0.bytes, folded) }
    }

    // MARK: - Records

    private func at(_ row: XLSXRow) -> SourceLocation { locations.at(row.number) }

    /// Hands a record on: held with its raw text while the sheet is read, emitted at the end.
    private func output(_ record: SourceRecord, _ row: XLSXRow) throws {
        if let emit {
            try emit(record) { row.text }
            return
        }
        keepRaw(row)
        held.append(.record(record, rawEnd: recordRaw.count))
    }

    /// The row's cells joined by tabs, for the raw text of a later conflict.
    private func keepRaw(_ row: XLSXRow) {
        for (i, cell) in row.cells.enumerated() {
            if i > 0 { recordRaw.append(0x09) }
            recordRaw.append(contentsOf: cell.bytes.bindMemory(to: UInt8.self))
        }
    }

    private func rawText(_ range: Range<Int>) -> String {
        var bytes: [UInt8] = []
        recordRaw.copy(from: range.lowerBound, count: range.count, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func skip(_ row: XLSXRow, _ reason: String) throws {
        try output(.skipped(SkippedRow(source: at(row), reason: reason)), row)
    }

    private func reject(_ row: XLSXRow, _ errors: [FieldError]) throws {
        try output(.rejected(RejectedRow(source: at(row), raw: row.text, errors: errors)), row)
    }

    /// Keeps a cash row's cells to read it at the end (its security needs section 4.1).
    private func holdCashRow(_ row: XLSXRow) {
        for cell in row.cells {
            var length = cell.bytes.count
            if length >= 0x7FFF {
                longLengths[heldCells.count] = length
                length = 0x7FFF
            }
            heldCells.append(UInt32(min(cell.column, 0x3FFF)) << 18 | UInt32(cell.kind.rawValue) << 15 | UInt32(length))
            heldBytes.append(contentsOf: cell.bytes.bindMemory(to: UInt8.self))
        }
        held.append(.cashRow(number: row.number, map: cashMapIndex!, currency: currency!, cellsEnd: heldCells.count))
    }

    /// Reads the held rows, now that the securities are known, and emits every record in row order.
    func finish(emit: RecordHandler) throws {
        try withoutActuallyEscaping(emit) { emit in
            self.emit = emit
            defer { self.emit = nil }
            try emitHeld(emit)
        }
    }

    private func emitHeld(_ emit: RecordHandler) throws {
        var rawStart = 0
        var cellStart = 0
        var bytePosition = 0
        var scratch: [XLSXCell] = []
        var rowBytes: [UInt8] = []
        var lengths: [(Int, XLSXCell.Kind, Int)] = []
        func row(_ cellsEnd: Int) {
            scratch.removeAll(keepingCapacity: true)
            rowBytes.removeAll(keepingCapacity: true)
            lengths.removeAll(keepingCapacity: true)
            for i in cellStart..<cellsEnd {
                let packed = heldCells[i]
                var length = Int(packed & 0x7FFF)
                if length == 0x7FFF { length = longLengths[i]! }
                lengths.append((Int(packed >> 18), XLSXCell.Kind(rawValue: UInt8(packed >> 15 & 7))!, length))
                heldBytes.copy(from: bytePosition, count: length, into: &rowBytes)
                bytePosition += length
            }
            cellStart = cellsEnd
            rowBytes.withUnsafeBytes { bytes in
                var offset = 0
                for (column, kind, length) in lengths {
                    scratch.append(XLSXCell(column: column, kind: kind, bytes: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])))
                    offset += length
                }
            }
        }
        for item in held {
            switch item {
            case .record(let record, let rawEnd):
                let range = rawStart..<rawEnd
                rawStart = rawEnd
                try emit(record) { self.rawText(range) }
            case .trade(var trade, let ticker, let rawEnd):
                let range = rawStart..<rawEnd
                rawStart = rawEnd
                if let ticker, let isin = isinByTicker[ticker] { trade.isin = isin }
                try emit(.operation(.trade(trade))) { self.rawText(range) }
            case .cashRow(let number, let map, let currency, let cellsEnd):
                row(cellsEnd)
                try withExtendedLifetime(rowBytes) {
                    try scratch.withUnsafeBufferPointer { try readCash(XLSXRow(number: number, cells: $0), cashMaps[map], currency) }
                }
            }
        }
        held = []
        heldCells = ChunkedArray()
        heldBytes = ChunkedArray()
    }

    // MARK: - Section 1: trades

    private func tradeRow(_ row: XLSXRow) throws {
        switch section {
        case .pendingTrades:
            return try skip(row, "pending: not yet executed at the end of the report's period (section 1.2); a later report lists it as executed")
        case .terminatedTrades:
            return try skip(row, "terminated without execution (section 1.3)")
        case .repoChanges:
            return try skip(row, "a change of a repo deal's terms (section 1.4), not a trade")
        default:
            break
        }
        guard let map = tradeMap else {
            return try reject(row, [FieldError(column: nil, field: nil, message: "a row of section 1.1 before any header row naming its columns (Номер сделки, …): the layout is not one tradeport knows")])
        }
        if !map.missing.isEmpty {
            return try reject(row, [FieldError(column: nil, field: nil, message: "the header row \(map.headerRow) of section 1.1 has no column \(map.missing.map { "'\(TradeField.printed[$0] ?? $0)'" }.joined(separator: ", ")), which a trade needs")])
        }
        try readTrade(row, map)
    }

    /// A row of section 1.1 as a trade (or a repo skip, or a reject).
    private func readTrade(_ row: XLSXRow, _ map: TableMap) throws {
        tradeRow.read(row, map)
        let cells = tradeRow
        var check = TinkoffValues(codes: codes, dateSystem: dateSystem)

        let kind = cells[.kind]
        let side: TradeSide?
        if let kindCell = kind.cell, HeaderText.matches(kindCell.bytes, Self.buy) {
            side = .buy
        } else if let kindCell = kind.cell, HeaderText.matches(kindCell.bytes, Self.sell) {
            side = .sell
        } else {
            HeaderText.fold(kind.cell?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0), into: &folded)
            if folded.starts(with: Self.repo) { return try skip(row, "repo: a repo leg is financing, not a trade") }
            side = nil
            check.add(kind, "side", folded.isEmpty ? "empty; expected Покупка or Продажа" : "'\(kind.cell!.text)' is not a deal kind tradeport knows (Покупка, Продажа, РЕПО …)")
        }
        let deal = check.text(cells[.deal], "externalId", required: true)
        let time = check.time(date: cells[.date], time: cells[.time], zone: &zone)
        let name = check.text(cells[.name], "name", required: false)
        let codeText = check.text(cells[.code], "base", required: true)
        let quote = check.asset(cells[.priceCurrency], "quote", required: true)
        let price = check.number(cells[.price], "price", .nonNegative, required: true)
        let quantity = check.number(cells[.quantity], "quantity", .positive, required: true)
        // The model's amount is without accrued interest: Сумма (без НКД) when the report has it,
        // else Сумма сделки less НКД.
        let amountWithoutInterest = check.number(cells[.amountWithoutInterest], "amount", .nonNegative, required: false)
        let dealAmount = check.number(cells[.amount], "amount", .nonNegative, required: false)
        let interest = check.number(cells[.accruedInterest], "accruedInterest", .nonNegative, required: false)
        var amount = amountWithoutInterest
        if amount == nil, let dealAmount {
            amount = interest.map { dealAmount.subtracting($0) ?? dealAmount } ?? dealAmount
        }
        let settlementCurrency = check.asset(cells[.settlementCurrency], "settlementCurrency", required: false)
        let settlementDate = check.date(cells[.settlementDate], "settlementDate", required: false)
        let venue = check.text(cells[.venue], "venue", required: false)
        let order = check.text(cells[.order], "orderId", required: false)

        var fees: [TradeFee] = []
        for fee in Self.fees {
            guard let value = check.number(cells[fee.amount], fee.amountName, .nonNegative, required: false), !value.isZero else { continue }
            var feeCurrency: AssetCode?
            if let currency = fee.currency, cells[currency].cell != nil {
                feeCurrency = check.asset(cells[currency], fee.currencyName, required: true)
            } else {
                feeCurrency = settlementCurrency ?? quote
            }
            if let feeCurrency { fees.append(TradeFee(amount: value, currency: feeCurrency, kind: fee.kind)) }
        }

        // A currency deal (USDRUB_TOM, code USD000UTSTOM) trades the currency itself.
        var base: AssetCode?
        if let codeText {
            if let quote, let currencyBase = Self.currencyPairBase(name: name, code: codeText, quote: quote) {
                base = currencyBase
            } else if let code = AssetCode(codeText.trimmedOfSpaces) {
                base = code
            } else {
                check.add(cells[.code], "base", "'\(codeText)' is not an asset code (letters and digits)")
            }
        }
        guard check.errors.isEmpty, let side, let deal, let time, let base, let quote, let price, let quantity else {
            return try reject(row, check.errors)
        }
        if let name, let codeText, !name.isEmpty { tickerByTradeName[name] = codeText }
        let trade = Trade(
            externalId: deal, time: time, side: side, base: base, quote: quote, quantity: quantity, price: price,
            amount: amount, accruedInterest: interest.flatMap { $0.isZero ? nil : $0 }, fees: fees,
            isin: codeText.flatMap { isinByTicker[$0] }, name: name,
            venue: venue, settlementDate: settlementDate, orderId: order, source: at(row))
        // Read while the sheet streams by (the other threads are busy inflating and parsing); held
        // for its ISIN, which section 4.1 gives at the end.
        keepRaw(row)
        held.append(.trade(trade, ticker: codeText, rawEnd: recordRaw.count))
    }

    /// A trade's fee columns: amount, currency (else the settlement or price currency) and the
    /// field names their errors give.
    private static let fees: [(amount: TradeField, currency: TradeField?, kind: FeeKind, amountName: String, currencyName: String)] = [
        (.brokerFee, .brokerFeeCurrency, .broker, "fees.broker", "fees.broker.currency"),
        (.exchangeFee, .exchangeFeeCurrency, .exchange, "fees.exchange", "fees.exchange.currency"),
        (.clearingFee, .clearingFeeCurrency, .clearing, "fees.clearing", "fees.clearing.currency"),
        (.stampDuty, nil, .other, "fees.other", "fees.other.currency"),
    ]

    /// The currency a currency deal buys or sells: by its name (`USDRUB_TOM`, `CNYRUB_TOD`) or, when
    /// the name is missing, by its Moscow Exchange code (`USD000UTSTOM`, `USD000000TOD`,
    /// `EUR_RUB__TOM`), with the price in the other currency of the pair.
    static func currencyPairBase(name: String?, code: String, quote: AssetCode) -> AssetCode? {
        func letters(_ u: ArraySlice<UInt8>) -> Bool { u.allSatisfy { $0 >= 65 && $0 <= 90 } }
        if let name {
            let u = Array(name.utf8)
            if u.count > 7, u[6] == UInt8(ascii: "_"), letters(u[0..<6]), String(decoding: u[3..<6], as: UTF8.self) == quote.text {
                return AssetCode(String(decoding: u[0..<3], as: UTF8.self))
            }
        }
        let c = Array(code.utf8)
        guard c.count >= 10, letters(c[0..<3]) else { return nil }
        let base = String(decoding: c[0..<3], as: UTF8.self)
        let rest = String(decoding: c[3...], as: UTF8.self)
        let isPair = rest.hasPrefix("000") || rest.hasPrefix("_\(quote.text)_") || rest.hasPrefix("\(quote.text)_")
        guard isPair, base != quote.text, rest.hasSuffix("TOM") || rest.hasSuffix("TOD") || rest.hasSuffix("SPT") else { return nil }
        return AssetCode(base)
    }

    // MARK: - Section 2: cash

    /// Cash operations by their folded text.
    private static let cashTypes: [[UInt8]: CashTransactionType] = Dictionary(uniqueKeysWithValues: [
        ("пополнениесчета", .deposit), ("выводсредств", .withdrawal), ("выплатадивидендов", .dividend),
        ("возмещениедоходаподивидендам-списание", .dividendCharge), ("налог", .tax), ("налог(дивиденды)", .tax),
        ("комиссияпотарифу", .fee), ("выплатакупонов", .coupon), ("погашениеоблигации", .redemption),
        ("налог(поитогугода)", .tax),
    ].map { (Array($0.utf8), $1) })
    /// «Выплата доходов по корпоративным действиям» (reports since 2024): one operation for every
    /// payout, its kind in the note's «Тип КД: …».
    private static let corporateActionPayout = Array("выплатадоходовпокорпоративнымдействиям".utf8)
    /// The kinds of «Тип КД» a payout may name, folded; any other is a reject naming it.
    private static let corporateActionKinds: [String: CashTransactionType] = [
        "выплатадивидендов": .dividend, "выплатадивидендовртс": .dividend,
        "выплатадоходапооблигациям": .coupon, "частичноепогашение": .redemption, "погашениевуст.срок": .redemption,
    ]

    /// The value of `key: value` in a payout's note (`Тип КД: Выплата дивидендов, Наименование: ВТБ ао, ISIN: …`).
    static func noteValue(_ note: String, _ key: String) -> String? {
        guard let start = note.range(of: key + ":") else { return nil }
        let rest = note[start.upperBound...]
        let end = rest.firstIndex(of: ",") ?? rest.endIndex
        let value = rest[..<end].trimmedOfSpaces
        return value.isEmpty ? nil : value
    }
    private static let tradeLegs: Set<[UInt8]> = Set(["покупка/продажа", "комиссиязасделки", "репо", "dvp/rvp", "иныеоперации"].map { Array($0.utf8) })
    private static let securityTypes: Set<CashTransactionType> = [.dividend, .dividendCharge, .coupon, .redemption]
    private static let dividendTax = Array("налог(дивиденды)".utf8)

    private func cashSectionRow(_ row: XLSXRow) throws {
        if row.cells.count == 1, row.cells[0].kind == .string, let code = Self.currencyHeading(row.cells[0]) {
            currency = code
            cashMapIndex = nil
            inBalanceSummary = false
            return
        }
        if Self.has(row, Self.operationHeader) {
            cashMapIndex = mapIndex(row, CashField.table, &cashMaps, &cashLayouts)
            inBalanceSummary = false
            return
        }
        if let first = row.cells.first, first.kind == .string, HeaderText.matches(first.bytes, Self.currencyColumnHeader) {
            inBalanceSummary = true
            return
        }
        guard let map = cashMap, currency != nil else {
            if inBalanceSummary && cashMap == nil { return try skip(row, "balance summary (section 2), not an operation") }
            return try reject(row, [FieldError(column: nil, field: nil, message: "a row of section 2 outside a currency block with a header row (Дата, Операция, Сумма зачисления, …): the layout is not one tradeport knows")])
        }
        if !map.missing.isEmpty {
            return try reject(row, [FieldError(column: nil, field: nil, message: "the header row \(map.headerRow) of section 2 has no column \(map.missing.map { "'\(TradeField.printed[$0] ?? $0)'" }.joined(separator: ", "))")])
        }
        holdCashRow(row)
    }

    /// A row of a currency block of section 2 as a cash transaction (or a skip, or a reject).
    private func readCash(_ row: XLSXRow, _ map: TableMap, _ currency: AssetCode) throws {
        cashRow.read(row, map)
        let cells = cashRow
        var check = TinkoffValues(codes: codes, dateSystem: dateSystem)
        let operationCell = cells[.operation].cell
        HeaderText.fold(operationCell?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0), into: &folded)
        let note = check.text(cells[.note], "note", required: false)
        if note != nil, let noteCell = cells[.note].cell, HeaderText.matches(noteCell.bytes, Self.planned) {
            return try skip(row, "planned, not yet done (noted План)")
        }
        if Self.tradeLegs.contains(folded) {
            return try skip(row, "trade cash leg (\(operationCell!.text)): the trade itself comes from section 1")
        }
        var payoutKind: CashTransactionType?
        if folded == Self.corporateActionPayout {
            let kind = note.flatMap { Self.noteValue($0, "Тип КД") }
            guard let kind, let type = Self.corporateActionKinds[String(decoding: HeaderText.fold(kind), as: UTF8.self)] else {
                check.add(cells[.note], "type", kind.map { "'Тип КД: \($0)' is a corporate action tradeport does not know (it reads dividends, bond income, partial and full redemptions); a new kind must be added to the Tinkoff adapter, not guessed" }
                          ?? "a corporate-action payout whose note names no 'Тип КД: …': its kind cannot be told")
                return try reject(row, check.errors)
            }
            payoutKind = type
        }
        guard var type = payoutKind ?? Self.cashTypes[folded] else {
            check.add(cells[.operation], "type",
                      folded.isEmpty ? "empty; expected an operation such as Пополнение счета"
                                        : "'\(operationCell!.text)' is an operation tradeport does not know; a new kind of cash row must be added to the Tinkoff adapter, not guessed")
            return try reject(row, check.errors)
        }
        let credit = check.number(cells[.credit], "amount", .nonNegative, required: false) ?? .zero
        let debit = check.number(cells[.debit], "amount", .nonNegative, required: false) ?? .zero
        var amount: ExactDecimal?
        if check.errors.isEmpty {
            switch (credit.isZero, debit.isZero) {
            case (true, true):
                check.add(nil, "amount", "both Сумма зачисления and Сумма списания are 0 or empty")
            case (false, false):
                check.add(nil, "amount", "both Сумма зачисления (\(credit)) and Сумма списания (\(debit)) are set")
            case (false, true) where type.isIncoming, (true, false) where !type.isIncoming:
                amount = credit.isZero ? debit : credit
            default:
                // Money the other way: a refund of a tax or a fee; anything else is not what its name says.
                if type == .tax && !credit.isZero {
                    type = .taxRefund
                    amount = credit
                } else if type == .fee && !credit.isZero {
                    type = .feeRefund
                    amount = credit
                } else {
                    check.add(cells[credit.isZero ? .debit : .credit], "amount",
                              "'\(operationCell!.text)' \(type.isIncoming ? "brings money in, but the row has Сумма списания" : "takes money out, but the row has Сумма зачисления")")
                }
            }
        }
        let time = check.time(date: cells[.date].cell != nil ? cells[.date] : cells[.settled], time: cells[.time], zone: &zone)
        guard check.errors.isEmpty, let amount, let time else { return try reject(row, check.errors) }
        var security: String?
        if Self.securityTypes.contains(type) || payoutKind != nil || folded == Self.dividendTax, let note {
            if let name = Self.noteValue(note, "Наименование") {
                // The 2024– notes: `Наименование: ВТБ ао, ISIN: RU000A0JP5V6, …`.
                security = tickerBySecurityName[name] ?? tickerByTradeName[name] ?? Self.noteValue(note, "ISIN")
            } else if let slash = note.firstIndex(of: "/") {
                let name = note[..<slash].trimmedOfSpaces
                security = tickerBySecurityName[name] ?? tickerByTradeName[name]
            }
        }
        let transaction = CashTransaction(externalId: nil, time: time, type: type, asset: currency, amount: amount,
                                          security: security, note: note, source: at(row))
        try output(.operation(.transaction(transaction)), row)
    }

    /// A currency block's heading: a row holding just a code such as `RUB`.
    private static func currencyHeading(_ cell: XLSXCell) -> AssetCode? {
        let text = cell.text.trimmedOfSpaces
        guard text.utf8.count == 3, text.utf8.allSatisfy({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 }) else { return nil }
        return AssetCode(text)
    }

    // MARK: - Other sections

    private func referenceRow(_ row: XLSXRow, section number: String) throws {
        // The first row of a reference table is its header; a row with the same texts repeats it
        // on a later page, where the columns may have moved: each maps its own.
        let isHeader = referenceHeader.map { header in
            header.count == row.cells.count
                && zip(row.cells, header).allSatisfy { $0.kind == .string ? HeaderText.matches($0.bytes, $1) : $1.isEmpty }
        } ?? true
        if isHeader {
            if referenceHeader == nil { referenceHeader = row.cells.map { $0.kind == .string ? HeaderText.fold($0.bytes) : [] } }
            if number == "4.1" { securitiesMap = TableMap(fields: SecurityField.table, header: row) }
            return
        }
        if let map = securitiesMap, map.missing.isEmpty {
            securityRow.read(row, map)
            if let code = securityRow[.code].cell?.text.trimmedOfSpaces, !code.isEmpty {
                if let isin = securityRow[.isin].cell?.text.trimmedOfSpaces, !isin.isEmpty { isinByTicker[code] = isin }
                if let name = securityRow[.name].cell?.text.trimmedOfSpaces, !name.isEmpty { tickerBySecurityName[name] = code }
            }
        }
        try skip(row, referenceSkipReason)
    }
}

private extension StringProtocol {
    /// Without leading and trailing spaces (plain or no-break).
    var trimmedOfSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\u{A0}" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\u{A0}" { s.removeLast() }
        return String(s)
    }
}

/// An array grown in fixed-size chunks: appending never copies what is already there, so holding
/// many rows costs what they take, not twice that while a buffer doubles.
struct ChunkedArray<Element> {
    private var chunks: [[Element]] = []
    private static var chunkSize: Int { max(1, (1 << 20) / max(1, MemoryLayout<Element>.stride)) }
    private(set) var count = 0

    mutating func append(_ element: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        var i = 0
        while i < elements.count {
            if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
                chunks.append([])
                chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
            }
            let n = min(elements.count - i, Self.chunkSize - chunks[chunks.count - 1].count)
            chunks[chunks.count - 1].append(contentsOf: UnsafeBufferPointer(rebasing: elements[i..<(i + n)]))
            i += n
        }
        count += elements.count
    }

    subscript(i: Int) -> Element { chunks[i / Self.chunkSize][i % Self.chunkSize] }

    /// Appends `count` elements from `start` to `out`.
    func copy(from start: Int, count: Int, into out: inout [Element]) {
        var i = start
        let end = start + count
        while i < end {
            let chunk = chunks[i / Self.chunkSize]
            let offset = i % Self.chunkSize
            let n = min(end - i, Self.chunkSize - offset)
            out.append(contentsOf: chunk[offset..<(offset + n)])
            i += n
        }
    }
}
