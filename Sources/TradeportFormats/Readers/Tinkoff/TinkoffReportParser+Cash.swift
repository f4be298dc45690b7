import TradeportCore
import TradeportXLSX

/// Section 2: the money. First a summary (a row per currency: the opening and closing balances,
/// which the reading is checked against), then a block per currency: its code on a row of its own,
/// a header row, the operations — or, since 2026, the operations alone, with no label and no
/// header row (`+CashLayout`, which also tells a balance line from an operation by its cells).
///
/// The cash of the deals of section 1.1 is already there, aggregated per day («Покупка/продажа»,
/// «DVP/RVP», «DFP/RFP», «Неттинг», «РЕПО», «Комиссия за сделки»): those rows are skipped, the
/// deals themselves are the operations. Every other row is a typed transaction, and a row whose
/// operation tradeport does not know is a reject naming it.
extension TinkoffReportParser {
    static let operationHeader = Array("операция".utf8)
    static let currencyColumnHeader = Array("валюта".utf8)
    static let planned = Array("план".utf8)

    /// Cash operations by their folded text.
    static let cashTypes: [[UInt8]: CashTransactionType] = Dictionary(
        uniqueKeysWithValues: [
            ("пополнениесчета", .deposit), ("выводсредств", .withdrawal),
            // Between the investor's own accounts.
            ("переводзачисление", .deposit), ("переводсписание", .withdrawal),
            ("выплатадивидендов", .dividend), ("возмещениедоходаподивидендам-списание", .dividendCharge),
            ("налог", .tax), ("налог(дивиденды)", .tax), ("налог(поитогугода)", .tax),
            ("комиссияпотарифу", .fee), ("выплатакупонов", .coupon), ("погашениеоблигации", .redemption)
        ].map { (Array($0.utf8), $1) })
    /// «Выплата доходов по корпоративным действиям» (reports since 2024): one operation for every
    /// payout, its kind in the note's «Тип КД: …».
    static let corporateActionPayout = Array("выплатадоходовпокорпоративнымдействиям".utf8)
    /// The kinds of «Тип КД» a payout may name, folded; any other is a reject naming it.
    static let corporateActionKinds: [String: CashTransactionType] = [
        "выплатадивидендов": .dividend, "выплатадивидендовртс": .dividend,
        "выплатадоходапооблигациям": .coupon, "частичноепогашение": .redemption, "погашениевуст.срок": .redemption
    ]
    /// The cash legs of the deals of section 1.1, aggregated per day.
    static let tradeLegs: Set<[UInt8]> = Set(
        ["покупка/продажа", "комиссиязасделки", "репо", "dvp/rvp", "dfp/rfp", "неттинг", "иныеоперации"].map { Array($0.utf8) })
    static let securityTypes: Set<CashTransactionType> = [.dividend, .dividendCharge, .coupon, .redemption]
    static let dividendTax = Array("налог(дивиденды)".utf8)

    /// The value of `key: value` in a payout's note (`Тип КД: Выплата дивидендов, Наименование: ВТБ ао, ISIN: …`).
    static func noteValue(_ note: String, _ key: String) -> String? {
        guard let start = note.range(of: key + ":") else { return nil }
        let rest = note[start.upperBound...]
        let end = rest.firstIndex(of: ",") ?? rest.endIndex
        let value = rest[..<end].trimmedOfSpaces
        return value.isEmpty ? nil : value
    }

    func cashSectionRow(_ row: XLSXRow) throws {
        if row.cells.count == 1, row.cells[0].kind == .string, let code = Self.currencyHeading(row.cells[0]) {
            // A label ends a run of rows printed without one.
            headerless = nil
            if balanceMap != nil {
                // Under the summary: a block's heading if a header row follows, else a summary
                // row without balances.
                try settlePendingCurrency()
                pendingCurrency = (HeldRow(row), code)
                return
            }
            currency = code
            cashMapIndex = nil
            return
        }
        if Self.has(row, Self.operationHeader) {
            headerless = nil
            if let pending = pendingCurrency {
                currency = pending.code
                pendingCurrency = nil
            }
            balanceMap = nil
            cashMapIndex = mapIndex(row, CashColumn.table, &cashMaps, &cashLayouts)
            return
        }
        // A label with operations under it and no header row: the label is theirs.
        if pendingCurrency != nil, headerless == nil, try headerlessOperation(row) { return }
        try settlePendingCurrency()
        if let first = row.cells.first, first.kind == .string, HeaderText.matches(first.bytes, Self.currencyColumnHeader) {
            balanceMap = TableMap(fields: BalanceColumn.table, header: row)
            balanceHeaderColumns = Set(row.cells.compactMap { TinkoffValues.content($0) == nil ? nil : $0.column })
            return
        }
        if let map = balanceMap, cashMap == nil {
            // Under the summary: a balance line, or the operations printed with no header (2026–).
            if isBalanceLine(row, map) { return try balanceRow(row, map) }
            if try headerlessOperation(row) { return }
            return try reject(
                row,
                [
                    FieldError(
                        column: nil, field: nil,
                        message:
                            "a row under section 2's balance summary that is neither a currency's balance line (a currency code under Валюта, amounts under the balance headers) nor an operation (a date, an operation such as Пополнение счета, amounts): a layout tradeport does not know"
                    )
                ])
        }
        if headerless != nil {
            if try headerlessOperation(row) { return }
            return try reject(
                row,
                [
                    FieldError(
                        column: nil, field: nil,
                        message:
                            "a row among section 2's operations printed without a header row that is not one (a date, an operation such as Пополнение счета, one or two amounts, a note): a layout tradeport does not know"
                    )
                ])
        }
        guard let map = cashMap, currency != nil else {
            return try reject(
                row,
                [
                    FieldError(
                        column: nil, field: nil,
                        message:
                            "a row of section 2 outside a currency block with a header row (Дата, Операция, Сумма зачисления, …): without its currency and columns it cannot be read"
                    )
                ])
        }
        if !map.missing.isEmpty {
            return try reject(
                row,
                [
                    FieldError(
                        column: nil, field: nil,
                        message:
                            "the header row \(map.headerRow) of section 2 has no column \(map.missing.map { "'\(DealColumn.printed[$0] ?? $0)'" }.joined(separator: ", "))"
                    )
                ])
        }
        holdCashRow(row, map: cashMapIndex!, currency: cashCurrencyIndex(currency!))
    }

    /// Holds a cash row's cells, read at the end: a payout's security is named in section 4.1.
    /// `currency` is a place in `cashCurrencies`, or -(r + 1) for unlabelled run r.
    func holdCashRow(_ row: XLSXRow, map: Int, currency: Int) {
        HeldRow.encode(row, into: &scratch)
        let start = heldCashRows.count
        _ = scratch.withUnsafeBytes { heldCashRows.append(contentsOf: $0) }
        HeldEntry.cashRow(start: start, bytes: scratch.count, map: map, currency: currency).append(to: heldEntries)
    }

    /// Where `code` is in `cashCurrencies` (added when new): looked up only when the currency
    /// changes, since a block's rows share one.
    func cashCurrencyIndex(_ code: AssetCode) -> Int {
        if let last = lastCashCurrency, last.code == code { return last.index }
        let index: Int
        if let found = cashCurrencies.firstIndex(of: code) {
            index = found
        } else {
            index = cashCurrencies.count
            cashCurrencies.append(code)
        }
        lastCashCurrency = (code, index)
        return index
    }

    /// A currency-only row under the summary that no header row followed: a summary row without
    /// balances.
    func settlePendingCurrency() throws {
        guard let pending = pendingCurrency else { return }
        pendingCurrency = nil
        try pending.row.withRow { try skip($0, "balance summary (section 2) of \(pending.code) without balances: not an operation") }
    }

    /// A row of section 2's summary: a currency's opening and closing balances.
    private func balanceRow(_ row: XLSXRow, _ map: TableMap) throws {
        var cells = TableRow<BalanceColumn>()
        cells.read(row, map)
        var check = TinkoffValues(codes: codes, dateSystem: dateSystem)
        let currency = check.asset(cells[.currency], "asset", required: true)
        let opening = check.number(cells[.opening], "opening", .nonNegative, required: false)
        let closing = check.number(cells[.closing], "closing", .nonNegative, required: false)
        if map.missing.isEmpty, check.errors.isEmpty, let currency, let opening, let closing {
            balances.append(StatedBalance(asset: currency, kind: .cash, opening: opening, closing: closing, source: at(row)))
        }
        // A balance with a debt (a negative one, or text) is not checked, but the row is not an operation either.
        try skip(row, "balance summary (section 2), not an operation: the operations are checked against it")
    }

    /// A row of a currency block of section 2 as a cash transaction (or a skip, or a reject).
    func readCash(_ row: XLSXRow, _ map: TableMap, _ currency: AssetCode) throws {
        var cells = TableRow<CashColumn>()
        cells.read(row, map)
        var check = TinkoffValues(codes: codes, dateSystem: dateSystem)
        let operationCell = cells[.operation].cell
        let operationText = operationCell.map { $0.text.trimmedOfSpaces } ?? ""
        HeaderText.fold(operationCell?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0), into: &folded)
        let note = check.text(cells[.note], "note", required: false)
        if note != nil, let noteCell = cells[.note].cell, HeaderText.matches(noteCell.bytes, Self.planned) {
            return try skip(row, "planned, not yet done (noted План)")
        }
        if Self.tradeLegs.contains(folded) {
            return try skip(row, "trade cash leg (\(operationText)): the deals themselves come from section 1.1")
        }
        var payoutKind: CashTransactionType?
        // «Погашение в уст. срок», «Погашение облигации»: the bond's units leave too (`+Movements`).
        var fullRedemption = Self.fullRedemptionKinds.contains(String(decoding: folded, as: UTF8.self))
        if folded == Self.corporateActionPayout {
            let kind = note.flatMap { Self.noteValue($0, "Тип КД") }
            guard let kind, let type = Self.corporateActionKinds[String(decoding: HeaderText.fold(kind), as: UTF8.self)] else {
                check.add(
                    cells[.note], "type",
                    kind.map {
                        "'Тип КД: \($0)' is a corporate action tradeport does not know (it reads dividends, bond income, partial and full redemptions); a new kind must be added to the Tinkoff reader, not guessed"
                    }
                        ?? "a corporate-action payout whose note names no 'Тип КД: …': its kind cannot be told")
                return try reject(row, check.errors)
            }
            payoutKind = type
            fullRedemption = Self.fullRedemptionKinds.contains(String(decoding: HeaderText.fold(kind), as: UTF8.self))
        }
        guard var type = payoutKind ?? Self.cashTypes[folded] else {
            check.add(
                cells[.operation], "type",
                folded.isEmpty
                    ? "empty; expected an operation such as Пополнение счета"
                    : "'\(operationText)' is an operation tradeport does not know; a new kind of cash row must be added to the Tinkoff reader, not guessed")
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
                    check.add(
                        cells[credit.isZero ? .debit : .credit], "amount",
                        "'\(operationText)' \(type.isIncoming ? "brings money in, but the row has Сумма списания" : "takes money out, but the row has Сумма зачисления")"
                    )
                }
            }
        }
        let time = check.time(date: TinkoffValues.content(cells[.date].cell) != nil ? cells[.date] : cells[.settled], time: cells[.time], zone: &zone)
        guard check.errors.isEmpty, let amount, let time else { return try reject(row, check.errors) }
        var security: String?
        if Self.securityTypes.contains(type) || payoutKind != nil || folded == Self.dividendTax, let note {
            if let name = Self.noteValue(note, "Наименование") {
                // The 2024– notes: `Наименование: ВТБ ао, ISIN: RU000A0JP5V6, …`.
                security = codeBySecurityName[name] ?? codeByDealName[name] ?? Self.noteValue(note, "ISIN")
            } else if let slash = note.firstIndex(of: "/") {
                let name = note[..<slash].trimmedOfSpaces
                security = codeBySecurityName[name] ?? codeByDealName[name]
            }
        }
        // A security held under a ticker and its ISIN is one asset: the ticker.
        if let s = security, let r = rekeyed[s] { security = r.ticker }
        // A transfer's row names no more than the operation: it is the note.
        let transaction = CashTransaction(
            externalId: nil, time: time, type: type, asset: currency, amount: amount,
            security: security, note: note ?? (folded.starts(with: Array("перевод".utf8)) ? operationText : nil),
            source: at(row))
        if fullRedemption, type == .redemption, let note {
            noteRedemption(transaction, note: note, operation: note.contains("Тип КД") ? (Self.noteValue(note, "Тип КД") ?? operationText) : operationText)
        }
        try output(.operation(.transaction(transaction)), row)
    }

    /// A currency block's heading: a row holding just a code such as `RUB`.
    static func currencyHeading(_ cell: XLSXCell) -> AssetCode? {
        let text = cell.text.trimmedOfSpaces
        guard text.utf8.count == 3, text.utf8.allSatisfy({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 }) else { return nil }
        return AssetCode(text)
    }
}
