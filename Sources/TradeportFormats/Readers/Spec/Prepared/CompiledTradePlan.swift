import TradeportCSV
import TradeportCore
import TradeportSpec

/// The plainest specs' trades read straight from a row's bytes into what the conversion takes
/// (`PreparedOperation`): no column value, field value or string made per row. Compiled once
/// from the spec's plan, for a spec whose rows are all one trade, read alone (no kinds by a column,
/// no groups, one operation a row), with venue ids, and whose columns and mapping use only what it
/// knows (`init` answers nil otherwise).
///
/// It reads a row only when the row is plainly right: every cell the kind of value its column
/// wants, in ASCII, every check met. Anything else — an empty cell where one is refused, a bad
/// number, a check not met, a byte past ASCII — and `read` answers nil: the row is then read as
/// before (`ReadState.handle`), which gives the same trade or names the problem.
/// What it writes is what `CanonicalJSON.appendLine` writes for that trade, byte for byte, and its
/// content hash and balance changes are the trade's (`OperationIdentity.contentHash`,
/// `PortfolioOperation.forEachBalanceChange`): the tests hold both readings equal.
final class CompiledTradePlan: @unchecked Sendable {
    /// What a column's cell must be.
    enum Column: Sendable {
        case text, id, asset
        case decimal(DecimalCheck)
        case dateTime(CompiledPattern)
        /// The map's entries: a cell's bytes, and the word it gives (by its index in `words`).
        case map([(from: [UInt8], word: Int)])
    }

    /// What one field of the trade's table writes.
    enum Value: Sendable {
        /// The same every row (nil: written as is, not hashed: the id, which the conversion gives).
        case constant(FieldValue?)
        case text(Int)
        case asset(Int)
        case decimal(Int, DecimalSign)
        case time(Int)
        /// A map's word, by the column's entry.
        case choice(Int)
        /// The fees: each an amount column, a currency column and a kind.
        case fees([(amount: Int, currency: Int, kind: FeeKind)])
        case location
    }

    struct Field: Sendable {
        /// `,"name":` (no comma for the first field).
        let key: [UInt8]
        let value: Value
        let identity: Bool
        /// Left out when empty (a field added after the model's first version).
        let omittedWhenEmpty: Bool
        /// Must have a value: an empty cell sends the row to the reading before.
        let required: Bool
    }

    let empties: [SpecPlan.Empty]
    let readOrder: [Int]

    // What the row loop reads, in memory of its own that the plan owns (allocated once, never
    // changed, freed with it), so that reading it touches no reference count: measured, the
    // fields as values, then as arrays read per field, made a third of the time retain and release.
    /// What each column's cell is read as (one byte each).
    enum CellKind: UInt8 { case text, id, asset, decimal, dateTime, map }
    /// Where each field's value comes from (one byte each).
    enum FieldKind: UInt8 {
        /// The same every row.
        case constant
        /// A column's cell: its text, asset code, decimal, time, or map word.
        case text, asset, decimal, time, choice
        case fees, location
        /// The id, which the conversion gives.
        case id

        /// Whether the value is read from a column's cell.
        var readsCell: Bool { self == .text || self == .asset || self == .decimal || self == .time || self == .choice }
    }

    /// Per column: what its cell is read as; its decimal check.
    let columnKind: UnsafeMutableBufferPointer<CellKind>
    let columnCheck: UnsafeMutableBufferPointer<DecimalCheck>
    let patterns: [CompiledPattern?]
    let maps: [[(from: [UInt8], word: Int)]]
    /// Per field: where its value comes from; its column, sign, and whether it is hashed, left out
    /// when empty, required.
    let fieldKind: UnsafeMutableBufferPointer<FieldKind>
    let fieldColumn: UnsafeMutableBufferPointer<Int>
    let fieldSign: UnsafeMutableBufferPointer<DecimalSign>
    let fieldIdentity: UnsafeMutableBufferPointer<Bool>
    let fieldOmitted: UnsafeMutableBufferPointer<Bool>
    let fieldRequired: UnsafeMutableBufferPointer<Bool>
    /// Per field: its constant, and whether that is empty.
    let constants: UnsafeMutableBufferPointer<FieldValue>
    let constantEmpty: UnsafeMutableBufferPointer<Bool>
    /// `,"name":` of every field one after another, each constant's JSON, each map word as JSON
    /// and as text; where each begins (one more entry than there are fields or words).
    let keys: UnsafeMutableRawBufferPointer
    let keyStart: UnsafeMutableBufferPointer<Int>
    let constantJSON: UnsafeMutableRawBufferPointer
    let constantStart: UnsafeMutableBufferPointer<Int>
    let wordJSON: UnsafeMutableRawBufferPointer
    let wordJSONStart: UnsafeMutableBufferPointer<Int>
    let wordText: UnsafeMutableRawBufferPointer
    let wordTextStart: UnsafeMutableBufferPointer<Int>
    let feeColumns: [(amount: Int, currency: Int, kind: FeeKind)]
    /// The line's template: runs of constant fields (their keys and JSON, those left out when
    /// empty left out) written as one literal (`FieldKind.constant`: `literal[start..<end]` in
    /// `segmentStart`/`segmentEnd`), and each other field by its index (`segmentStart`).
    let segmentLiteral: UnsafeMutableBufferPointer<Bool>
    let segmentStart: UnsafeMutableBufferPointer<Int>
    let segmentEnd: UnsafeMutableBufferPointer<Int>
    let literal: UnsafeMutableRawBufferPointer

    private static func owned<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
        let b = UnsafeMutableBufferPointer<T>.allocate(capacity: max(values.count, 1))
        _ = b.initialize(from: values)
        return UnsafeMutableBufferPointer(rebasing: b[..<values.count])
    }

    private static func owned(bytes: [UInt8]) -> UnsafeMutableRawBufferPointer {
        let b = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        b.copyBytes(from: bytes)
        return UnsafeMutableRawBufferPointer(rebasing: b[..<bytes.count])
    }

    deinit {
        constants.deinitialize()
        for p in [
            UnsafeMutableRawPointer(columnKind.baseAddress), UnsafeMutableRawPointer(columnCheck.baseAddress),
            UnsafeMutableRawPointer(fieldKind.baseAddress), UnsafeMutableRawPointer(fieldColumn.baseAddress),
            UnsafeMutableRawPointer(fieldSign.baseAddress), UnsafeMutableRawPointer(fieldIdentity.baseAddress),
            UnsafeMutableRawPointer(fieldOmitted.baseAddress), UnsafeMutableRawPointer(fieldRequired.baseAddress),
            UnsafeMutableRawPointer(constants.baseAddress), UnsafeMutableRawPointer(constantEmpty.baseAddress),
            keys.baseAddress, UnsafeMutableRawPointer(keyStart.baseAddress), constantJSON.baseAddress,
            UnsafeMutableRawPointer(constantStart.baseAddress), wordJSON.baseAddress,
            UnsafeMutableRawPointer(wordJSONStart.baseAddress), wordText.baseAddress,
            UnsafeMutableRawPointer(wordTextStart.baseAddress), UnsafeMutableRawPointer(segmentLiteral.baseAddress),
            UnsafeMutableRawPointer(segmentStart.baseAddress), UnsafeMutableRawPointer(segmentEnd.baseAddress),
            literal.baseAddress
        ] {
            p?.deallocate()
        }
    }

    let checks: [SpecPlan.Check]
    let style: NumberStyle
    /// Each map's words as text (for checks).
    let wordTexts: [String]
    /// Where the trade's side, base, quote, quantity, price, amount, interest, external id and account come from.
    let side, base, quote, quantity, price: Int
    let amount, accruedInterest, externalId, account: Int?
    let buyWord: Int?
    /// The column of the trade's time.
    let timeColumn: Int

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    init?(_ plan: SpecPlan) {
        let spec = plan.spec
        guard case .csv(let csv) = spec.source, csv.encoding == .utf8, let m = plan.trade, !m.grouped,
            plan.rowKindColumn == nil, plan.group == nil, !plan.someRowsGiveSeveral,
            plan.plainColumns, plan.skips.isEmpty, !plan.hasLists, !plan.readsNotations, plan.assetAliases.isEmpty,
            m.portfolio == nil, spec.values.formulaQuote == nil, !spec.values.ooxmlEscapes, plan.zoneColumn == nil, plan.numberChecks.isEmpty
        else { return nil }
        switch spec.rows {
        case .transactions, .movements, .by: return nil
        default: break
        }
        var words: [[UInt8]] = []
        var wordTexts: [String] = []
        func word(_ text: String) -> Int {
            if let i = wordTexts.firstIndex(of: text) { return i }
            var out = OutputBuffer(capacity: 64)
            CanonicalJSON.appendString(text, to: &out)
            words.append(out.array)
            wordTexts.append(text)
            return words.count - 1
        }
        var columns: [Column?] = []
        for (i, kind) in plan.kinds.enumerated() {
            switch kind {
            case .text: columns.append(.text)
            case .id: columns.append(.id)
            case .asset: columns.append(.asset)
            case .decimal(let check):
                guard check != .transactionAmount else { return nil }
                columns.append(.decimal(check))
            case .dateTime:
                guard let pattern = plan.patterns[i] else { return nil }
                columns.append(.dateTime(pattern))
            case .map(let ignoreCase):
                guard !ignoreCase, let entries = plan.maps[i] else { return nil }
                columns.append(.map(entries.map { (from: $0.from, word: word($0.to)) }))
            case .date, .time, .instrument:
                return nil
            }
        }
        for check in plan.checks {
            for case .column(let c) in check.segments {
                switch plan.kinds[c] {
                case .text, .id, .asset, .map: break
                default: return nil
                }
            }
        }
        let layout = Trade.layout
        var fields: [Field] = []
        var where_: [TradeField: Int] = [:]
        for i in layout.fields.indices {
            var key: [UInt8] = i > 0 ? [UInt8(ascii: ",")] : []
            key += layout.keys[layout.keyStart[i]..<layout.keyStart[i + 1]]
            let since = layout.since[i] > 1
            var value: Value
            if m.idle[i] {
                value = .constant(i == layout.idField ? nil : (m.defaults[i] ?? .null))
            } else {
                func column(_ want: (SpecPlan.Kind) -> Bool) -> Int? {
                    guard case .column(let c)? = m.sources[i], want(plan.kinds[c]) else { return nil }
                    return c
                }
                let constant: String?
                if case .constant(let t)? = m.sources[i] { constant = t } else { constant = nil }
                switch m.steps[i] {
                case .text where constant != nil, .choice where constant != nil:
                    // `{const: …}`: a text as it is (none when empty); a choice one of its words.
                    let t = constant!
                    if case .choice = m.steps[i], !m.words[i].contains(t) { return nil }
                    value = .constant(t.isEmpty ? .null : .text(t))
                    if t.isEmpty && m.mustGive[i] { return nil }
                case .location: value = .location
                case .time:
                    guard let c = column({ if case .dateTime = $0 { true } else { false } }) else { return nil }
                    value = .time(c)
                case .text:
                    guard let c = column({ if case .text = $0 { true } else if case .id = $0 { true } else { false } }) else { return nil }
                    value = .text(c)
                case .asset:
                    guard let c = column({ if case .asset = $0 { true } else { false } }) else { return nil }
                    value = .asset(c)
                case .decimal(let sign):
                    guard let c = column({ if case .decimal = $0 { true } else { false } }) else { return nil }
                    value = .decimal(c, sign)
                case .choice:
                    guard let c = column({ if case .map = $0 { true } else { false } }), case .map(let entries)? = columns[c],
                        entries.allSatisfy({ m.words[i].contains(wordTexts[$0.word]) })
                    else { return nil }
                    value = .choice(c)
                case .tradeFees:
                    var fees: [(amount: Int, currency: Int, kind: FeeKind)] = []
                    for fee in m.fees {
                        guard case .column(let a) = fee.amount, case .column(let c) = fee.currency,
                            case .decimal = plan.kinds[a], case .asset = plan.kinds[c]
                        else { return nil }
                        fees.append((a, c, fee.kind))
                    }
                    value = .fees(fees)
                case .id, .date, .cashFee:
                    return nil
                }
            }
            where_[layout.fields[i]] = fields.count
            fields.append(
                Field(
                    key: key, value: value, identity: layout.identity[i], omittedWhenEmpty: since,
                    required: m.mustGive[i]))
        }
        func column(_ field: TradeField) -> Int? {
            switch fields[where_[field]!].value {
            case .text(let c), .asset(let c), .decimal(let c, _), .time(let c), .choice(let c): return c
            default: return nil
            }
        }
        guard let side = column(.side), let base = column(.base), let quote = column(.quote),
            let quantity = column(.quantity), let price = column(.price)
        else { return nil }
        guard case .time = fields[where_[.time]!].value else { return nil }
        // Without a venue id no row is prepared (its content id is numbered in order).
        guard column(.externalId) != nil else { return nil }
        // Fields the balance changes read must come from columns (or be always empty).
        for f in [TradeField.amount, .accruedInterest, .externalId, .account] {
            if case .constant(let v) = fields[where_[f]!].value, v != nil, v != .null { return nil }
        }
        columnKind = Self.owned(
            columns.map {
                switch $0 {
                case .text?: .text
                case .id?: .id
                case .asset?: .asset
                case .decimal?: .decimal
                case .dateTime?: .dateTime
                default: .map
                } as CellKind
            })
        columnCheck = Self.owned(columns.map { if case .decimal(let c)? = $0 { c } else { .signed } })
        patterns = columns.map { if case .dateTime(let p)? = $0 { p } else { nil } }
        maps = columns.map { if case .map(let e)? = $0 { e } else { [] } }
        var kinds: [FieldKind] = []
        var cols: [Int] = []
        var signs: [DecimalSign] = []
        var keys: [UInt8] = []
        var keyStart: [Int] = []
        var json: [UInt8] = []
        var jsonStart: [Int] = []
        var constants: [FieldValue] = []
        var feeColumns: [(amount: Int, currency: Int, kind: FeeKind)] = []
        for field in fields {
            keyStart.append(keys.count)
            keys += field.key
            jsonStart.append(json.count)
            var kind = FieldKind.constant
            var col = 0
            var sign = DecimalSign.any
            var constant = FieldValue.null
            switch field.value {
            case .constant(let v?):
                constant = v
                var out = OutputBuffer(capacity: 64)
                CanonicalJSON.appendValue(v, to: &out)
                json += out.array
            case .constant(nil): kind = .id
            case .text(let c):
                kind = .text
                col = c
            case .asset(let c):
                kind = .asset
                col = c
            case .decimal(let c, let s):
                kind = .decimal
                col = c
                sign = s
            case .time(let c):
                kind = .time
                col = c
            case .choice(let c):
                kind = .choice
                col = c
            case .fees(let list):
                kind = .fees
                feeColumns = list
            case .location: kind = .location
            }
            kinds.append(kind)
            cols.append(col)
            signs.append(sign)
            constants.append(constant)
        }
        keyStart.append(keys.count)
        jsonStart.append(json.count)
        fieldKind = Self.owned(kinds)
        fieldColumn = Self.owned(cols)
        fieldSign = Self.owned(signs)
        fieldIdentity = Self.owned(fields.map(\.identity))
        fieldOmitted = Self.owned(fields.map(\.omittedWhenEmpty))
        fieldRequired = Self.owned(fields.map(\.required))
        self.constants = Self.owned(constants)
        constantEmpty = Self.owned(constants.map(\.isEmpty))
        self.keys = Self.owned(bytes: keys)
        self.keyStart = Self.owned(keyStart)
        constantJSON = Self.owned(bytes: json)
        constantStart = Self.owned(jsonStart)
        var wj: [UInt8] = []
        var wjs: [Int] = []
        var wt: [UInt8] = []
        var wts: [Int] = []
        for (j, t) in zip(words, wordTexts) {
            wjs.append(wj.count)
            wj += j
            wts.append(wt.count)
            wt += Array(t.utf8)
        }
        wjs.append(wj.count)
        wts.append(wt.count)
        wordJSON = Self.owned(bytes: wj)
        wordJSONStart = Self.owned(wjs)
        wordText = Self.owned(bytes: wt)
        wordTextStart = Self.owned(wts)
        self.feeColumns = feeColumns
        var lit: [UInt8] = []
        var isLiteral: [Bool] = []
        var starts: [Int] = []
        var ends: [Int] = []
        var run: Int?
        for i in fields.indices {
            guard kinds[i] == .constant else {
                run = nil
                isLiteral.append(false)
                starts.append(i)
                ends.append(i)
                continue
            }
            if fields[i].omittedWhenEmpty && constants[i].isEmpty { continue }
            if run == nil {
                run = isLiteral.count
                isLiteral.append(true)
                starts.append(lit.count)
                ends.append(lit.count)
            }
            lit += keys[keyStart[i]..<keyStart[i + 1]]
            lit += json[jsonStart[i]..<jsonStart[i + 1]]
            ends[run!] = lit.count
        }
        segmentLiteral = Self.owned(isLiteral)
        segmentStart = Self.owned(starts)
        segmentEnd = Self.owned(ends)
        literal = Self.owned(bytes: lit)
        empties = plan.empties
        readOrder = plan.readOrder
        checks = plan.checks
        style = plan.style
        self.wordTexts = wordTexts
        self.side = side
        self.base = base
        self.quote = quote
        self.quantity = quantity
        self.price = price
        amount = column(.amount)
        accruedInterest = column(.accruedInterest)
        externalId = column(.externalId)
        account = column(.account)
        buyWord = wordTexts.firstIndex(of: TradeSide.buy.rawValue)
        timeColumn = zip(kinds, cols).first { $0.0 == .time }!.1
    }

    /// One cell as read: nothing (an empty cell that may be), its bytes, or its value.
    enum Cell {
        case none
        /// A text's bytes: in the row's raw text, or in the reader's scratch for a quoted cell it
        /// had to unescape (valid while the row is read).
        case bytes(UnsafeRawBufferPointer)
        case asset(AssetCode)
        case decimal(ExactDecimal)
        case time(Timestamp)
        case word(Int)
    }

    /// What a worker keeps from row to row.
    struct Scratch {
        var cells: [Cell]
        var fees: [TradeFee] = []
        var check: [UInt8] = []
        /// The source's location as JSON up to the row (`CanonicalJSON.locationHead`).
        let locationHead: [UInt8]
        init(_ plan: CompiledTradePlan, path: String) {
            cells = Array(repeating: .none, count: plan.columnKind.count)
            locationHead = CanonicalJSON.locationHead(path: path)
        }
    }

    /// The trade of `record` prepared into `parts`, or nil when the row is not plainly right (or
    /// the preparation declines it): the caller then reads it as before.
    func read(
        _ record: CSVRecord, positions: [Int?], zone: inout SourceTimeZone.Converter, codes: AssetCodeCache, path: String,
        scratch s: inout Scratch, preparation: OperationPreparation, into parts: inout PreparedParts,
        of store: PreparedStore
    ) -> PreparedOperation? {
        let raw = record.raw
        guard !raw.isEmpty else { return nil }
        func cell(_ c: Int) -> UnsafeRawBufferPointer {
            guard let p = positions[c], p < record.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return record[p]
        }
        // 1. Every column, as `SpecRowValues.read` reads it, or nil. Nothing is kept from the row
        // before (a column whose emptiness depends on a later one sees it unread, as there).
        for c in s.cells.indices { s.cells[c] = .none }
        for c in readOrder {
            let f = cell(c)
            if f.isEmpty {
                switch empties[c] {
                case .allowed:
                    s.cells[c] = .none
                    continue
                case .allowedWhenZero(let o):
                    switch s.cells[o] {
                    case .none:
                        s.cells[c] = .none
                        continue
                    case .decimal(let d) where d.isZero:
                        s.cells[c] = .none
                        continue
                    default: return nil
                    }
                case .refused:
                    return nil
                }
            }
            switch columnKind[c] {
            case .text:
                guard Self.isASCII(f) else { return nil }
                s.cells[c] = .bytes(f)
            case .id:
                guard Self.isASCII(f), !f.contains(UInt8(ascii: " ")) else { return nil }
                s.cells[c] = .bytes(f)
            case .asset:
                guard let code = codes.code(f) else { return nil }
                s.cells[c] = .asset(code)
            case .decimal:
                guard case .success(let v) = ExactDecimal.parse(f, style: style) else { return nil }
                let check = columnCheck[c]
                if check == .positive && !v.isPositive { return nil }
                if check != .signed && v.isNegative { return nil }
                s.cells[c] = .decimal(v)
            case .dateTime:
                guard let m = patterns[c]!.match(f), let date = m.date, let clock = m.clock,
                    let local = LocalDateTime(date: date, hour: clock.0, minute: clock.1, second: clock.2),
                    let instant = zone.writableTimestamp(for: local)
                else { return nil }
                s.cells[c] = .time(clock.3 == 0 ? instant : instant.with(nanoseconds: clock.3))
            case .map:
                guard let hit = maps[c].first(where: { $0.from.count == f.count && $0.from.elementsEqual(f) }) else { return nil }
                s.cells[c] = .word(hit.word)
            }
        }
        // Without a venue id the conversion numbers the row's content id in order: not prepared.
        guard let e = externalId, case .bytes = s.cells[e] else { return nil }
        // 2. The checks: each met, or nil (the reading before names the one not met).
        for check in checks {
            s.check.removeAll(keepingCapacity: true)
            var complete = true
            for segment in check.segments {
                switch segment {
                case .literal(let bytes): s.check.append(contentsOf: bytes)
                case .column(let c):
                    switch s.cells[c] {
                    case .none: complete = false
                    case .bytes(let b): s.check.append(contentsOf: b)
                    case .asset(let code): s.check.append(contentsOf: code.text.utf8)
                    case .word(let w): s.check.append(contentsOf: wordTexts[w].utf8)
                    default: return nil
                    }
                }
            }
            guard complete else { continue }  // a value the check needs is missing: not checked
            if check.lowercase {
                for k in s.check.indices where s.check[k] >= 65 && s.check[k] <= 90 { s.check[k] |= 0x20 }
            }
            let f = cell(check.column)
            guard f.count == s.check.count, f.elementsEqual(s.check) else { return nil }
        }
        // 3. The fields a trade must have, their signs, and its fees.
        for i in fieldKind.indices where fieldKind[i].readsCell {
            let c = fieldColumn[i]
            switch s.cells[c] {
            case .none: if fieldRequired[i] { return nil }
            case .decimal(let d): if !fieldSign[i].admits(d) { return nil }
            default: break
            }
        }
        s.fees.removeAll(keepingCapacity: true)
        for fee in feeColumns {
            if case .decimal(let d) = s.cells[fee.amount], !d.isZero, case .asset(let code) = s.cells[fee.currency] {
                // A negative fee breaks the model: the plain reading rejects the row, saying so.
                if d.isNegative { return nil }
                s.fees.append(TradeFee(amount: d, currency: code, kind: fee.kind))
            }
        }
        // 4. The trade: its content hash, its line, its balance changes (the cells read through a
        // pointer, and passed so: each field copied from the scratch would retain its arrays).
        guard case .time(let time) = s.cells[timeColumn] else { return nil }
        let fees = s.fees
        let row = record.line
        let externalText = externalId.flatMap { text(s.cells[$0], raw) }
        let accountText = account.flatMap { text(s.cells[$0], raw) }
        let locationHead = s.locationHead
        return s.cells.withUnsafeBufferPointer { cells in
            var h = FastHasher()
            h.combine(0 as UInt64)
            for i in fieldKind.indices where fieldIdentity[i] {
                h.combine(UInt64(i))
                combine(i, raw, cells, fees, into: &h)
            }
            let content = h.finalize()
            return preparation.prepare(
                kind: .trade, carried: "", externalId: externalText, account: accountText, placedIn: nil, row: row,
                time: time.secondsSinceEpoch, content: { content }, nanoseconds: time.nanoseconds,
                render: { id, portfolio, out in
                    guard preparation.form.writesCanonicalFields else {
                        // A sink that renders model values (push): the trade as the reading before gives it.
                        preparation.render(.trade(trade(cells, fees, row: row, path: path)), id: id, portfolio: portfolio, to: &out)
                        return
                    }
                    preparation.appendBytes(.trade, portfolio: portfolio, to: &out) { out in
                        for k in segmentLiteral.indices {
                            if segmentLiteral[k] {
                                out.append(UnsafeRawBufferPointer(rebasing: literal[segmentStart[k]..<segmentEnd[k]]))
                            } else {
                                append(segmentStart[k], id: id, raw, cells, fees, row: row, locationHead: locationHead, to: &out)
                            }
                        }
                    }
                },
                changes: { body in
                    guard case .asset(let b) = cells[base], case .asset(let q) = cells[quote],
                        case .decimal(let qty) = cells[quantity], case .decimal(let p) = cells[price], case .word(let w) = cells[side]
                    else { return }
                    PortfolioOperation.forEachTradeChange(
                        buy: w == buyWord, base: b, quote: q, quantity: qty, price: p, amount: amount.flatMap { decimal(cells[$0]) },
                        accruedInterest: accruedInterest.flatMap { decimal(cells[$0]) }, fees: fees, body)
                }, into: &parts, of: store)
        }
    }

    private func decimal(_ cell: Cell) -> ExactDecimal? { if case .decimal(let d) = cell { d } else { nil } }

    /// The row's trade as the reading before makes it (`SpecRowValues`), from the cells: each field
    /// the value its JSON is written from (`append`), the id left for the conversion to give.
    private func trade(_ cells: UnsafeBufferPointer<Cell>, _ fees: [TradeFee], row: Int, path: String) -> Trade {
        var trade = Trade.placeholder.fields
        for (i, field) in Trade.layout.fields.enumerated() {
            let kind = fieldKind[i]
            let cell = kind.readsCell ? cells[fieldColumn[i]] : Cell.none
            let value: FieldValue
            switch (kind, cell) {
            case (.constant, _): value = constants[i]
            case (.text, .bytes(let b)): value = .text(String(decoding: b, as: UTF8.self))
            case (.asset, .asset(let code)): value = .asset(code)
            case (.decimal, .decimal(let d)): value = .decimal(d)
            case (.time, .time(let t)): value = .time(t)
            case (.choice, .word(let w)): value = .text(wordTexts[w])
            case (.fees, _): value = .tradeFees(fees)
            case (.location, _): value = .location(SourceLocation(path: path, row: row))
            case (.id, _): value = .text("")
            default: value = .null
            }
            trade[field] = value
        }
        return Trade(fields: trade)
    }

    private func text(_ cell: Cell, _ raw: UnsafeRawBufferPointer) -> String? {
        guard case .bytes(let b) = cell, !b.isEmpty else { return nil }
        return String(decoding: b, as: UTF8.self)
    }

    /// Field `i`'s value into the content hash, as `FastHasher.combine(_: FieldValue)` takes it.
    private func combine(
        _ i: Int, _ raw: UnsafeRawBufferPointer, _ cells: UnsafeBufferPointer<Cell>, _ fees: [TradeFee],
        into h: inout FastHasher
    ) {
        let cell = fieldKind[i].readsCell ? cells[fieldColumn[i]] : Cell.none
        switch (fieldKind[i], cell) {
        case (.text, .bytes(let b)): h.combineText(b)
        case (.asset, .asset(let code)): h.combine(FieldValue.asset(code))
        case (.decimal, .decimal(let d)): h.combine(FieldValue.decimal(d))
        case (.time, .time(let t)): h.combine(FieldValue.time(t))
        case (.choice, .word(let w)): h.combineText(UnsafeRawBufferPointer(rebasing: wordText[wordTextStart[w]..<wordTextStart[w + 1]]))
        case (.fees, _): h.combine(FieldValue.tradeFees(fees))
        case (.constant, _): h.combine(constants[i])
        default: h.combine(FieldValue.null)
        }
    }

    /// `,"name":value` of field `i`, as `CanonicalJSON.appendFields` writes it.
    private func append(
        _ i: Int, id: UnsafeRawBufferPointer?, _ raw: UnsafeRawBufferPointer, _ cells: UnsafeBufferPointer<Cell>,
        _ fees: [TradeFee], row: Int, locationHead: [UInt8], to out: inout OutputBuffer
    ) {
        let kind = fieldKind[i]
        let cell = kind.readsCell ? cells[fieldColumn[i]] : Cell.none
        let empty: Bool
        switch kind {
        case .constant: empty = constantEmpty[i]
        case .fees: empty = fees.isEmpty
        case .text, .asset, .decimal, .time, .choice: if case .none = cell { empty = true } else { empty = false }
        case .location, .id: empty = false
        }
        if empty && fieldOmitted[i] { return }
        out.append(UnsafeRawBufferPointer(rebasing: keys[keyStart[i]..<keyStart[i + 1]]))
        switch (kind, cell) {
        case (.constant, _):
            out.append(UnsafeRawBufferPointer(rebasing: constantJSON[constantStart[i]..<constantStart[i + 1]]))
        case (.id, _):
            // The id the conversion gives.
            if let id { CanonicalJSON.appendString(id, to: &out) } else { out.append("\"\"") }
        case (.text, .bytes(let b)):
            CanonicalJSON.appendString(b, to: &out)
        case (.asset, .asset(let code)):
            CanonicalJSON.appendString(code.text, to: &out)
        case (.decimal, .decimal(let d)):
            out.append(UInt8(ascii: "\""))
            d.appendText(to: &out)
            out.append(UInt8(ascii: "\""))
        case (.time, .time(let t)):
            out.append(UInt8(ascii: "\""))
            t.appendRFC3339(to: &out)
            out.append(UInt8(ascii: "\""))
        case (.choice, .word(let w)):
            out.append(UnsafeRawBufferPointer(rebasing: wordJSON[wordJSONStart[w]..<wordJSONStart[w + 1]]))
        case (.fees, _):
            CanonicalJSON.appendValue(.tradeFees(fees), to: &out)
        case (.location, _):
            locationHead.withUnsafeBytes { out.append($0) }
            CanonicalJSON.appendLocationTail(row: row, sheet: nil, to: &out)
        default:
            out.append("null")
        }
    }

    private static func isASCII(_ f: UnsafeRawBufferPointer) -> Bool {
        var high: UInt8 = 0
        for b in f { high |= b }
        return high < 0x80
    }
}
