import TradeportCore
import TradeportXLSX

/// Section 2 read by its rows' structure, not by where they stand.
///
/// Until 2025 the section prints its balance summary (a header row, a row per currency), then per
/// currency a label row (`RUB`), a header row and the operations. The 2026 report prints the
/// summary, a page footer, and then the operations with **no label and no header row**, in
/// columns of their own. So a row under the summary is a balance line only if it looks like one
/// (`isBalanceLine`: a currency code under «Валюта», every other cell under a header of the
/// summary), and an operation row is recognized by its content (`headerlessLayout`: dates and a
/// time, then the operation's name, then one or two amounts, then perhaps a note), its columns
/// found from the row itself. Anything else is a reject naming the row, never a skip.
///
/// A run of such rows with a label before it (`RUB` alone on a row, no header) takes that
/// currency. A run with no label takes the one currency whose printed balances it fits: opening
/// + what the labelled blocks of that currency moved + what the run moved = closing (planned
/// rows, noted «План», are not in the closing). The conversion then warns (`inferred-currency`)
/// that the report printed no label, naming the currency and the sums. When no currency fits,
/// or more than one does, every row of the run is a reject saying so.
extension TinkoffReportParser {
    /// Operation rows of section 2 after the summary with no header row over them, while they last.
    struct HeaderlessBlock {
        /// The currency a label row printed before them; nil when none did.
        var label: AssetCode?
        /// The run in `unlabelledRuns` (when `label` is nil).
        var run: Int?
        /// The columns of the amounts, from the first row that has both (a row with one amount is
        /// read by them).
        var credit: Int?
        var debit: Int?
    }

    /// A run of operation rows printed with no currency label: its currency is decided at the end.
    struct UnlabelledRun {
        var first: Int
        var last: Int
        var count = 0
        /// Credit − debit of its rows, planned ones aside; nil once a row's amounts cannot be read.
        var net: ExactDecimal? = .zero
        /// The first row whose amounts cannot be read.
        var unreadable: Int?
        /// What the end of the sheet decided: the currency, or why none.
        var currency: AssetCode?
        var problem: String?
    }

    /// What a cell holds, by its content.
    enum Shape { case date, time, number, text }

    /// Where each field of a headerless operation row is (0-based columns).
    struct HeaderlessLayout {
        var date: Int?
        var time: Int?
        var settled: Int?
        var operation: Int
        var credit: Int
        var debit: Int
        var note: Int?
    }

    /// The shape of a cell's content; nil for a blank cell.
    func shape(_ cell: XLSXCell) -> Shape? {
        guard let content = TinkoffValues.content(cell) else { return nil }
        let at = TableCell(cell: cell, column: cell.column)
        var probe = TinkoffValues(codes: codes, dateSystem: dateSystem)
        switch cell.kind {
        case .string:
            if content.count >= 10, content[2] == UInt8(ascii: "."), probe.date(at, "date", required: false) != nil { return .date }
            if content.contains(UInt8(ascii: ":")), content.count <= 8, probe.timeOfDay(at) != nil, probe.errors.isEmpty { return .time }
            // Only what starts with a digit is tried as a number: a text's failed parse makes a message.
            guard content[0] &- 48 < 10 else { return .text }
            probe.errors.removeAll()
            if probe.number(at, "amount", .nonNegative, required: false) != nil { return .number }
            return .text
        case .number:
            return .number
        case .date:
            // A serial below 1 is a time of day alone.
            return content.first == UInt8(ascii: "0") && (content.count == 1 || content[1] == UInt8(ascii: ".")) ? .time : .date
        case .isoDate:
            return .date
        case .boolean, .error:
            return .text
        }
    }

    /// Whether `row`, under the summary whose header `map` read, is a currency's balance line: a
    /// currency code under «Валюта», and every other cell under a header of the summary, none of
    /// them a date or a time.
    func isBalanceLine(_ row: XLSXRow, _ map: TableMap) -> Bool {
        guard let currencyColumn = map.columns[BalanceColumn.currency.rawValue] else { return false }
        var sawCode = false
        for cell in row.cells {
            guard let shape = shape(cell) else { continue }
            if cell.column == currencyColumn {
                guard shape == .text, let content = TinkoffValues.content(cell), codes.code(content) != nil else { return false }
                sawCode = true
            } else if !balanceHeaderColumns.contains(cell.column) || shape == .date || shape == .time {
                return false
            }
        }
        return sawCode
    }

    /// The shape of each cell of `row` that is not blank: its place in the row's cells, its column.
    func shapes(_ row: XLSXRow) -> [(index: Int, column: Int, shape: Shape)] {
        row.cells.indices.compactMap { i in shape(row.cells[i]).map { (i, row.cells[i].column, $0) } }
    }

    /// The layout of an operation row printed with no header row over it, found from its cells:
    /// one or two dates and at most one time, the operation's name, one or two amounts (credit,
    /// then debit; one alone is placed by `block`'s columns), then at most a note. Nil when the
    /// row is not of that shape.
    func headerlessLayout(_ shapes: [(index: Int, column: Int, shape: Shape)], _ block: HeaderlessBlock?) -> HeaderlessLayout? {
        var dates: [Int] = []
        var times: [Int] = []
        var operation: Int?
        var amounts: [Int] = []
        var note: Int?
        for cell in shapes {
            let shape = cell.shape
            if note != nil { return nil }
            guard operation != nil else {
                switch shape {
                case .date: dates.append(cell.column)
                case .time: times.append(cell.column)
                case .text: operation = cell.column
                case .number: return nil
                }
                continue
            }
            // After two amounts, or a text after one, whatever comes is the note.
            if amounts.count < 2 && shape == .number { amounts.append(cell.column) } else if amounts.isEmpty { return nil } else { note = cell.column }
        }
        guard let operation, (1...2).contains(dates.count), times.count <= 1, !amounts.isEmpty else { return nil }
        var layout: HeaderlessLayout
        if amounts.count == 2 {
            layout = HeaderlessLayout(operation: operation, credit: amounts[0], debit: amounts[1])
        } else if let credit = block?.credit, let debit = block?.debit, amounts[0] == credit || amounts[0] == debit {
            layout = HeaderlessLayout(operation: operation, credit: credit, debit: debit)
        } else {
            return nil
        }
        layout.note = note
        layout.time = times.first
        if dates.count == 2 {
            layout.date = dates[0]
            layout.settled = dates[1]
        } else if times.isEmpty {
            // A trade's cash leg prints only the day it settled.
            layout.settled = dates[0]
        } else {
            layout.date = dates[0]
        }
        return layout
    }

    /// The map of a headerless layout, as if a header row had named its columns (one per layout).
    func headerlessMapIndex(_ layout: HeaderlessLayout, row: Int) -> Int {
        var texts: [(column: Int, text: [UInt8])] = []
        func put(_ column: Int?, _ field: CashColumn) {
            if let column { texts.append((column, CashColumn.table[field.rawValue].folded[0])) }
        }
        put(layout.date, .date)
        put(layout.time, .time)
        put(layout.settled, .settled)
        put(layout.operation, .operation)
        put(layout.credit, .credit)
        put(layout.debit, .debit)
        put(layout.note, .note)
        texts.sort { $0.column < $1.column }
        let key = texts.map { Layout(column: $0.column, text: $0.text) }
        if let index = cashLayouts[key] { return index }
        cashMaps.append(TableMap(fields: CashColumn.table, headerRow: row, texts: texts))
        cashLayouts[key] = cashMaps.count - 1
        return cashMaps.count - 1
    }

    /// Reads `row` as an operation row with no header over it, if it is one: held like any cash
    /// row, its currency the label's or its run's. False when the row is not of that shape.
    func headerlessOperation(_ row: XLSXRow) throws -> Bool {
        guard let layout = headerlessLayout(shapes(row), headerless) else { return false }
        var block = headerless ?? HeaderlessBlock()
        if headerless == nil {
            // The label printed before the rows, if any, is theirs.
            if let pending = pendingCurrency {
                pendingCurrency = nil
                block.label = pending.code
            } else {
                block.run = unlabelledRuns.count
                unlabelledRuns.append(UnlabelledRun(first: row.number, last: row.number))
            }
            // No summary row comes after the operations.
            balanceMap = nil
        }
        if block.credit == nil { (block.credit, block.debit) = (layout.credit, layout.debit) }
        headerless = block
        let mapIndex = headerlessMapIndex(layout, row: row.number)
        if let label = block.label {
            holdCashRow(row, map: mapIndex, currency: cashCurrencyIndex(label))
        } else if let r = block.run {
            let moved = movedMoney(row, cashMaps[mapIndex])
            unlabelledRuns[r].last = row.number
            unlabelledRuns[r].count += 1
            if let moved, let net = unlabelledRuns[r].net {
                unlabelledRuns[r].net = net.adding(moved)
            } else {
                unlabelledRuns[r].net = nil
            }
            if unlabelledRuns[r].net == nil, unlabelledRuns[r].unreadable == nil { unlabelledRuns[r].unreadable = row.number }
            // A run's rows name it as -(index + 1) where a currency's place would be.
            holdCashRow(row, map: mapIndex, currency: -(r + 1))
        }
        return true
    }

    /// What a cash row moved: credit − debit (nil when either cannot be read), 0 for a planned row,
    /// which the closing balance does not count yet.
    func movedMoney(_ row: XLSXRow, _ map: TableMap) -> ExactDecimal? {
        var cells = TableRow<CashColumn>()
        cells.read(row, map)
        if let note = cells[.note].cell, HeaderText.matches(note.bytes, Self.planned) { return .zero }
        var check = TinkoffValues(codes: codes, dateSystem: dateSystem)
        let credit = check.number(cells[.credit], "amount", .nonNegative, required: false) ?? .zero
        let debit = check.number(cells[.debit], "amount", .nonNegative, required: false) ?? .zero
        guard check.errors.isEmpty else { return nil }
        return credit.subtracting(debit)
    }

    /// What the rows of each currency's labelled blocks moved (credit − debit, planned rows
    /// aside), and the currencies some of whose rows cannot be read: read again from the held
    /// rows, and only when a run has no label, so a report of the usual layout reads its amounts
    /// once.
    func labelledNets() throws -> (net: [AssetCode: ExactDecimal], unreadable: Set<AssetCode>) {
        var net: [AssetCode: ExactDecimal] = [:]
        var unreadable: Set<AssetCode> = []
        var entryCursor = Spool.Cursor()
        var cashCursor = Spool.Cursor()
        var cells: [XLSXCell] = []
        for offset in stride(from: 0, to: heldEntries.count, by: HeldEntry.size) {
            guard let entry = try entryCursor.withBytes(of: heldEntries, from: offset, count: HeldEntry.size, { HeldEntry($0) }),
                entry.kind == .cashRow, entry.currency >= 0
            else { continue }
            let code = cashCurrencies[entry.currency]
            guard !unreadable.contains(code) else { continue }
            let moved = try cashCursor.withBytes(of: heldCashRows, from: entry.start, count: Int(entry.length)) {
                HeldRow.withRow(in: $0, cells: &cells) { movedMoney($0, cashMaps[entry.map]) }
            }
            if let moved, let sum = (net[code] ?? .zero).adding(moved) {
                net[code] = sum
            } else {
                unreadable.insert(code)
            }
        }
        return (net, unreadable)
    }

    /// Decides each unlabelled run's currency from the balances of section 2's summary; the
    /// warnings say which and why.
    func decideUnlabelledRuns() throws -> [ConversionWarning] {
        guard !unlabelledRuns.isEmpty else { return [] }
        let (labelledNet, labelledUnreadable) = try labelledNets()
        var warnings: [ConversionWarning] = []
        let stated = balances.filter { $0.kind == .cash }
        for i in unlabelledRuns.indices {
            var run = unlabelledRuns[i]
            defer { unlabelledRuns[i] = run }
            let rows = run.first == run.last ? "row \(run.first)" : "rows \(run.first)–\(run.last)"
            let what = "section 2 prints \(run.count) operation row\(run.count == 1 ? "" : "s") (\(rows)) with no currency label and no header row"
            guard let net = run.net else {
                run.problem =
                    "\(what), and the amounts of row \(run.unreadable ?? run.first) cannot be read: which currency the rows are in cannot be worked out from the balances the report prints"
                continue
            }
            var fits: [(code: AssetCode, sum: String)] = []
            var misses: [String] = []
            for balance in stated {
                guard !labelledUnreadable.contains(balance.asset) else {
                    misses.append("\(balance.asset): the amounts of its own block cannot all be read")
                    continue
                }
                let labelled = labelledNet[balance.asset] ?? .zero
                guard let sum = balance.opening.adding(labelled).flatMap({ $0.adding(net) }) else { continue }
                let text =
                    "\(balance.asset): opening \(balance.opening)\(labelled.isZero ? "" : " + its labelled rows \(labelled)") + these rows \(net) = \(sum)"
                if sum.subtracting(balance.closing)?.isZero == true {
                    fits.append((balance.asset, text + ", its closing"))
                } else {
                    misses.append(text + ", not its closing \(balance.closing)")
                }
            }
            if fits.count == 1 {
                run.currency = fits[0].code
                let others = misses.isEmpty ? "" : "; not \(misses.joined(separator: "; "))"
                warnings.append(
                    ConversionWarning(
                        code: "inferred-currency",
                        message: "\(what): read as \(fits[0].code), the one currency whose printed balances they fit (\(fits[0].sum))\(others)",
                        source: at(row: run.first)))
            } else if fits.isEmpty {
                run.problem =
                    "\(what), and no currency's printed balances fit them (\(misses.isEmpty ? "the summary prints none" : misses.joined(separator: "; "))): their currency cannot be told"
            } else {
                run.problem =
                    "\(what), and the balances of \(fits.map(\.code.text).joined(separator: " and ")) all fit them (\(fits.map(\.sum).joined(separator: "; "))): which currency is theirs cannot be told"
            }
        }
        return warnings
    }

    /// What an operation row found where tradeport reads none looks like, or nil: a cash
    /// operation (dates, a known operation's name, amounts) or a deal (a date, a time, Покупка or
    /// Продажа, numbers). A row skipped as a reference row (a balance, a position, a security's
    /// description, a reference table's entry) must not look like either: it is rejected instead.
    func operationLookalike(_ row: XLSXRow) -> String? {
        let shaped = shapes(row)
        if let layout = headerlessLayout(shaped, nil), let cell = row.cells.first(where: { $0.column == layout.operation }) {
            let name = HeaderText.fold(cell.bytes)
            if Self.cashTypes[name] != nil || Self.tradeLegs.contains(name) || name == Self.corporateActionPayout {
                return "a cash operation («\(cell.text.trimmedOfSpaces)»)"
            }
        }
        var dates = 0
        var times = 0
        var numbers = 0
        var side: String?
        for shaped in shaped {
            switch shaped.shape {
            case .date: dates += 1
            case .time: times += 1
            case .number: numbers += 1
            case .text:
                let cell = row.cells[shaped.index]
                let name = HeaderText.fold(cell.bytes)
                if name == Self.buy || name == Self.sell { side = cell.text.trimmedOfSpaces }
            }
        }
        if let side, dates > 0, times > 0, numbers >= 2 { return "a deal («\(side)»)" }
        return nil
    }

    /// Skips `row` as a reference row of `place` — unless it looks like an operation, which is a
    /// reject naming what it looks like: never an operation lost as a skip.
    func skipReference(_ row: XLSXRow, _ reason: String, place: String) throws {
        if try rejectOperation(row, place: place) { return }
        try skip(row, reason)
    }

    /// Rejects `row` when it looks like an operation (`cashOnly`: a cash operation) where `place`
    /// prints none; whether it did.
    func rejectOperation(_ row: XLSXRow, place: String, cashOnly: Bool = false) throws -> Bool {
        guard let what = operationLookalike(row), !cashOnly || what.hasPrefix("a cash") else { return false }
        let prints = cashOnly ? "deals" : "no operations"
        try reject(
            row,
            [
                FieldError(
                    column: nil, field: nil, message: "\(what) in \(place), where the report prints \(prints): a layout tradeport does not know, not skipped")
            ])
        return true
    }
}
