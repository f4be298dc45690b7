import TradeportCSV
import TradeportCore
import TradeportSpec
import TradeportXLSX

/// One row's values, read column by column in the spec's order, and the errors found on the way.
/// Made once per source and reset for each row.
struct SpecRowValues {
    let plan: SpecPlan
    let codes: AssetCodeCache
    var values: [SpecValue?]
    var errors: [FieldError] = []
    /// The portfolio the row's mapping names (its `portfolio`), when it names one.
    var portfolio: String?
    /// The spec's parameters, as given when converting or their defaults.
    var parameters: [String: String] = [:]
    /// The workbook's date system, for date cells.
    var dateSystem = XLSXWorkbook.DateSystem.from1900
    /// What `rows.by` makes the row, once read (nil: `rows: {kind: …}`, or a value it does not know).
    var rowKind: RowKind?
    /// What a group of rows gives the trade being built (by `GroupPlan.Field`), and its fees.
    var groupValues: [SpecValue?] = Array(repeating: nil, count: SpecPlan.GroupPlan.Field.allCases.count)
    var groupFees: [TradeFee] = []
    private var scratch: [UInt8] = []

    enum RowKind {
        /// A trade; with the index in `SpecPlan.transactionKinds` of the transactions it gives too.
        case trade(transactions: Int?)
        /// The index of the value in `SpecPlan.transactionKinds`.
        case transaction(Int)
        case movement
        /// A leg of a group's trade (`rows.legs`).
        case leg
    }

    init(plan: SpecPlan, codes: AssetCodeCache) {
        self.plan = plan
        self.codes = codes
        values = Array(repeating: nil, count: plan.spec.columns.count)
    }

    mutating func reset() {
        for i in values.indices { values[i] = nil }
        errors.removeAll(keepingCapacity: true)
        portfolio = nil
        rowKind = nil
    }

    /// What `rows.by`'s value `kind` makes a row; with a second column (`rows.by: [a, b]`), its
    /// value `also` is tried joined first (`Send|ETH2`), then `kind` alone.
    static func decideKind(_ plan: SpecPlan, _ kind: UnsafeRawBufferPointer, also: UnsafeRawBufferPointer?) -> RowKind? {
        if let also {
            let joined = Array(kind) + [UInt8(ascii: "|")] + Array(also)
            if let found = joined.withUnsafeBytes({ decideKind(plan, $0) }) { return found }
        }
        return decideKind(plan, kind)
    }

    /// The second column's value for `rows.by: [a, b]`: what its match takes, or its cell, empty
    /// where it holds an empty marker (`-`); nil when `rows.by` names one column.
    func kindAlso(_ record: some SpecRow, _ positions: [Int?]) -> [UInt8]? {
        guard let c = plan.rowKindAlsoColumn else { return nil }
        let f = cell(c, record, positions)
        let value = matched(c, f) ?? Array(f)
        return plan.emptyTexts[c].contains(value) ? [] : value
    }

    /// What `rows.by`'s value `kind` makes a row.
    static func decideKind(_ plan: SpecPlan, _ kind: UnsafeRawBufferPointer) -> RowKind? {
        if plan.rowKindIgnoresCase {
            let folded = Array(String(decoding: kind, as: UTF8.self).lowercased().utf8)
            return folded.withUnsafeBytes { decideExactly(plan, $0) }
        }
        return decideExactly(plan, kind)
    }

    private static func decideExactly(_ plan: SpecPlan, _ kind: UnsafeRawBufferPointer) -> RowKind? {
        if let t = plan.tradeKinds.firstIndex(where: { $0.count == kind.count && $0.elementsEqual(kind) }) {
            return .trade(transactions: plan.tradeTransactions[t])
        }
        if let hit = plan.transactionKinds.firstIndex(where: { $0.from.count == kind.count && $0.from.elementsEqual(kind) }) {
            return .transaction(hit)
        }
        if plan.movementKinds.contains(where: { $0.count == kind.count && $0.elementsEqual(kind) }) { return .movement }
        if plan.legKinds.contains(where: { $0.count == kind.count && $0.elementsEqual(kind) }) { return .leg }
        return nil
    }

    /// The row's cell of column `i` (empty when the row has none).
    func cell(_ i: Int, _ record: some SpecRow, _ positions: [Int?]) -> UnsafeRawBufferPointer {
        guard let p = positions[i], p < record.fieldCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return record.field(p).bytes
    }

    /// What column `i`'s `match:` takes from its cell `f` (empty when it does not match), or nil
    /// for a column without one: rules then compare the cell itself.
    func matched(_ i: Int, _ f: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let matcher = plan.matchers[i] else { return nil }
        guard !f.isEmpty, let taken = matcher.extract(String(decoding: f, as: UTF8.self)) else { return [] }
        return Array(taken.utf8)
    }

    /// Whether `f` is one of the texts that stand for an empty cell in column `i`.
    private func isEmptyText(_ i: Int, _ f: UnsafeRawBufferPointer) -> Bool {
        plan.emptyTexts[i].contains { $0.count == f.count && $0.elementsEqual(f) }
    }

    private func text(_ f: UnsafeRawBufferPointer) -> String { String(decoding: f, as: UTF8.self) }

    /// `-`?, digits, and `.` with digits, nothing else: a number cell's text already plain.
    static func isPlainNumber(_ b: UnsafeRawBufferPointer) -> Bool {
        var i = b.first == UInt8(ascii: "-") ? 1 : 0
        let start = i
        while i < b.count, b[i] &- 48 < 10 { i += 1 }
        guard i > start else { return false }
        if i == b.count { return true }
        guard b[i] == UInt8(ascii: ".") else { return false }
        i += 1
        let fraction = i
        while i < b.count, b[i] &- 48 < 10 { i += 1 }
        return i == b.count && i > fraction
    }

    /// Where `pattern` first occurs in `bytes` at or after `start`.
    static func firstIndex(of pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var i = start
        while i + pattern.count <= bytes.count {
            if bytes[i] == first {
                var k = 1
                while k < pattern.count, bytes[i + k] == pattern[k] { k += 1 }
                if k == pattern.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// Whether `f` reads as a value of column `i` (for detection).
    mutating func fits(_ i: Int, _ f: UnsafeRawBufferPointer) -> Bool {
        var zone = SourceTimeZone.utc.makeConverter()
        let before = errors.count
        return read(i, f, .text, zone: &zone, at: nil) != nil && errors.count == before
    }

    /// The reason of the first skip rule the row meets.
    func skipReason(_ record: some SpecRow, _ positions: [Int?]) -> String? {
        rules: for rule in plan.skips where meets(rule.column, rule.equals, record, positions) {
            for condition in rule.and where !meets(condition.column, condition.equals, record, positions) { continue rules }
            return rule.reason
        }
        return nil
    }

    /// Whether column `column`'s value (what its match takes, or the cell) is one of `equals`.
    private func meets(_ column: Int, _ equals: [[UInt8]], _ record: some SpecRow, _ positions: [Int?]) -> Bool {
        let f = cell(column, record, positions)
        if let taken = matched(column, f) { return equals.contains(taken) }
        return equals.contains(where: { $0.count == f.count && $0.elementsEqual(f) })
    }

    /// Reads every column, in the spec's order, then the cross-column checks. The row's kind is
    /// decided first: a column for some kinds only (`for:`) is not read on rows of the others.
    mutating func read(_ record: some SpecRow, _ positions: [Int?], zone: inout SourceTimeZone.Converter) {
        if plan.plainColumns {
            // Most specs: every column, from its own cell (the kind, when by a column, is still decided).
            if let c = plan.rowKindColumn, let p = positions[c], p < record.fieldCount {
                let also = kindAlso(record, positions)
                rowKind = also.withUnsafeBytesIfPresent { Self.decideKind(plan, record.field(p).bytes, also: $0) }
            }
            for i in plan.readOrder {
                var f = UnsafeRawBufferPointer(start: nil, count: 0)
                var kind = SpecFieldKind.text
                if let p = positions[i], p < record.fieldCount { (f, kind) = record.field(p) }
                readColumn(i, f, kind, positions, zone: &zone)
            }
            for check in plan.checks { apply(check, record, positions) }
            return
        }
        var mask: UInt8 = 15
        if let c = plan.rowKindColumn, let p = positions[c], p < record.fieldCount {
            let f = record.field(p).bytes
            let plan = self.plan
            let also = kindAlso(record, positions)
            rowKind = also.withUnsafeBytesIfPresent { also in
                matched(c, f).map { taken in taken.withUnsafeBytes { Self.decideKind(plan, $0, also: also) } } ?? Self.decideKind(plan, f, also: also)
            }
            switch rowKind {
            case .trade(let k)?: mask = k == nil ? 1 : 1 | 2
            case .transaction(let k)?: mask = plan.alsoMovement[k] ? 2 | 4 : 2
            case .movement?: mask = 4
            case .leg?: mask = 8
            case nil: mask = 16  // refused below for its kind; its kind-bound columns are not read
            }
        } else if plan.rowKindColumn == nil {
            switch plan.spec.rows {
            case .transactions: mask = 2
            case .movements: mask = 4
            default: mask = 1
            }
        }
        for i in plan.readOrder {
            if plan.kindMasks[i] & mask == 0 { continue }
            var f = UnsafeRawBufferPointer(start: nil, count: 0)
            var kind = SpecFieldKind.text
            if let p = positions[i], p < record.fieldCount { (f, kind) = record.field(p) }
            if !plan.emptyTexts[i].isEmpty, isEmptyText(i, f) { f = UnsafeRawBufferPointer(start: nil, count: 0) }
            if var taken = matched(i, f) {
                // The column reads what its pattern takes from the cell; no match is empty.
                if !taken.isEmpty, plan.emptyTexts[i].contains(taken) { taken = [] }
                taken.withUnsafeBytes { readColumn(i, $0, .text, positions, zone: &zone) }
                continue
            }
            readColumn(i, f, kind, positions, zone: &zone)
        }
        for check in plan.checks { apply(check, record, positions) }
    }

    /// Column `i`'s value from `f`, unless it is empty and may be.
    @inline(__always)
    private mutating func readColumn(
        _ i: Int, _ f: UnsafeRawBufferPointer, _ kind: SpecFieldKind, _ positions: [Int?],
        zone: inout SourceTimeZone.Converter
    ) {
        if f.isEmpty {
            switch plan.empties[i] {
            case .allowed: return
            case .allowedWhenZero(let o):
                if case .decimal(let d)? = values[o], d.isZero { return }
                if case .list(let parts)? = values[o], parts.allSatisfy({ if case .decimal(let d) = $0 { d.isZero } else { false } }) { return }
                if values[o] == nil { return }
            case .refused:
                break
            }
        }
        values[i] = read(i, f, kind, zone: &zone, at: positions[i].map { $0 + 1 })
    }

    private mutating func apply(_ check: SpecPlan.Check, _ record: some SpecRow, _ positions: [Int?]) {
        scratch.removeAll(keepingCapacity: true)
        for segment in check.segments {
            switch segment {
            case .literal(let bytes): scratch.append(contentsOf: bytes)
            case .column(let c):
                guard let t = values[c]?.text else { return }  // a value the check needs is missing
                scratch.append(contentsOf: t.utf8)
            }
        }
        if check.lowercase {
            for k in scratch.indices where scratch[k] >= 65 && scratch[k] <= 90 { scratch[k] |= 0x20 }
        }
        let p = positions[check.column]
        // A column not read on this row (another kind's, or empty where it may be) is not checked.
        if values[check.column] == nil && plan.matchers[check.column] != nil { return }
        let raw = cell(check.column, record, positions)
        let taken = matched(check.column, raw)
        if let taken { if taken == scratch { return } } else if raw.count == scratch.count && raw.elementsEqual(scratch) { return }
        let actualText = taken.map { String(decoding: $0, as: UTF8.self) } ?? text(raw)
        let expected = String(decoding: scratch, as: UTF8.self)
        var message = check.message.replacingOccurrences(of: "{value}", with: actualText).replacingOccurrences(of: "{expected}", with: expected)
        for (name, i) in plan.columnIndex where message.contains("{" + name + "}") {
            if let v = values[i]?.text { message = message.replacingOccurrences(of: "{\(name)}", with: v) }
        }
        errors.append(FieldError(column: p.map { $0 + 1 }, field: check.name, message: message))
    }

    private mutating func read(
        _ i: Int, _ raw: UnsafeRawBufferPointer, _ fieldKind: SpecFieldKind,
        zone: inout SourceTimeZone.Converter, at position: Int?
    ) -> SpecValue? {
        if plan.hasLists, let separator = plan.lists[i], Self.firstIndex(of: separator, in: raw, from: 0) != nil {
            // Several values in one cell: each read as the column's type; any bad one rejects the row.
            var parts: [SpecValue] = []
            var start = 0
            var failed = false
            while start <= raw.count {
                let end = Self.firstIndex(of: separator, in: raw, from: start) ?? raw.count
                if let v = readText(i, UnsafeRawBufferPointer(rebasing: raw[start..<end]), .text, zone: &zone, at: position) {
                    parts.append(v)
                } else {
                    failed = true
                }
                start = end + separator.count
            }
            return failed ? nil : .list(parts)
        }
        guard fieldKind == .number else { return readText(i, raw, fieldKind, zone: &zone, at: position) }
        switch plan.kinds[i] {
        case .dateTime, .date, .time:
            // A serial: the date reader takes the cell's text as stored.
            return readText(i, raw, .number, zone: &zone, at: position)
        case .decimal where raw.count <= 15 && Self.isPlainNumber(raw):
            // At most 15 characters hold at most 15 significant digits: nothing to round.
            return readText(i, raw, .number, zone: &zone, at: position)
        default:
            // A number cell holds a double: its 15 significant digits, as plain decimal text.
            if let value = XLSXNumber.withPlain(raw, significantDigits: 15, { readText(i, $0, .number, zone: &zone, at: position) }) {
                return value
            }
            return readText(i, raw, fieldKind, zone: &zone, at: position)
        }
    }

    private mutating func readText(
        _ i: Int, _ f: UnsafeRawBufferPointer, _ fieldKind: SpecFieldKind,
        zone: inout SourceTimeZone.Converter, at position: Int?
    ) -> SpecValue? {
        let plan = self.plan
        func fail(_ message: String) -> SpecValue? {
            errors.append(FieldError(column: position, field: plan.spec.columns[i].name, message: message))
            return nil
        }
        var column: ColumnSpec { plan.spec.columns[i] }
        switch plan.kinds[i] {
        case .text:
            // A text a writer kept from being run as a formula: its quote taken off.
            let f = plan.spec.values.formulaQuote.map { f.first == $0 ? UnsafeRawBufferPointer(rebasing: f.dropFirst()) : f } ?? f
            guard let s = plan.spec.values.ooxmlEscapes ? OOXMLText.unescaped(f) : TextDecoding.utf8(f) else { return fail("not valid UTF-8 text") }
            if s.isEmpty, case .refused = plan.empties[i] { return fail("empty; expected \(column.example.map { "a value like \($0)" } ?? "a value")") }
            return .text(s)
        case .id:
            let f = plan.spec.values.formulaQuote.map { f.first == $0 ? UnsafeRawBufferPointer(rebasing: f.dropFirst()) : f } ?? f
            guard !f.isEmpty, !f.contains(UInt8(ascii: " ")), let s = plan.spec.values.ooxmlEscapes ? OOXMLText.unescaped(f) : TextDecoding.utf8(f) else {
                return fail(f.isEmpty ? "empty; expected the venue's id" : "'\(text(f))' is not an id")
            }
            return .text(s)
        case .asset:
            if let code = codes.code(f) {
                if !plan.assetAliases.isEmpty, let alias = plan.assetAliases[code.text] { return .asset(alias) }
                return .asset(code)
            }
            return fail(f.isEmpty ? "empty; expected an asset code like BTC" : "'\(text(f))' is not an asset code (\(AssetCode.rule))")
        case .decimal(let check):
            // A space as thousands separator also takes the no-break spaces (NumberStyle does).
            let parsed: Result<ExactDecimal, NumberParseError>
            if plan.readsNotations, fieldKind != .number, let numbers = plan.columnNumbers[i] ?? plan.numbers {
                parsed = numbers.parse(f)
            } else {
                parsed = ExactDecimal.parse(f, style: fieldKind == .number ? .canonical : plan.style)
            }
            switch parsed {
            case .failure(let e):
                if f.isEmpty { return fail("empty; expected a number like \(column.example ?? plan.style.example)") }
                // What the core's message does not say: the construct that reads the character.
                // (Its messages that name a grouping or separator problem stay as they were.)
                var message = e.message
                if plan.numbers == nil, let hint = SpecNumberReader.hint(f, style: plan.style) {
                    if message.hasPrefix("not a number") || message.hasPrefix("no digits") {
                        message = hint.text
                    } else if hint.notation {
                        message += "; " + hint.text
                    }
                }
                return fail("'\(text(f))' is not a number: " + message)
            case .success(let v):
                var positive = check == .positive
                if check == .transactionAmount {
                    // Greater than zero when complete (or unknown); failed attempts record 0.
                    if let s = plan.statusColumn, case .mapped(let m)? = values[s] { positive = m == "complete" } else { positive = true }
                }
                if positive && !v.isPositive { return fail("'\(text(f))' must be greater than 0") }
                if check != .signed && v.isNegative { return fail("'\(text(f))' must not be negative") }
                return .decimal(v)
            }
        case .dateTime, .date, .time:
            let pattern = plan.patterns[i]!
            if fieldKind == .date || fieldKind == .number, let d = XLSXDateTime(serial: f, system: dateSystem) {
                // A date cell (or a serial number) in a worksheet.
                guard let date = CalendarDate(year: d.year, month: d.month, day: d.day) else { return fail("'\(text(f))' is not a date") }
                switch plan.kinds[i] {
                case .date: return .date(date)
                case .time: return .clock(hour: d.hour, minute: d.minute, second: d.second, nanoseconds: 0)
                default:
                    guard let local = LocalDateTime(date: date, hour: d.hour, minute: d.minute, second: d.second) else { return nil }
                    guard let instant = zone.writableTimestamp(for: local) else {
                        return fail("'\(text(f))' in \(zone.zoneName) falls outside the years 0001 to 9999 in UTC")
                    }
                    return .instant(instant)
                }
            }
            guard let m = pattern.match(f) else {
                let what: String
                if case .date = plan.kinds[i] { what = "date" } else { what = "time" }
                return fail("'\(text(f))' is not a \(what) like \(column.example ?? pattern.text) (\(pattern.text), a real calendar date)")
            }
            switch plan.kinds[i] {
            case .date: return m.date.map { .date($0) }
            case .time: return m.clock.map { .clock(hour: $0.0, minute: $0.1, second: $0.2, nanoseconds: $0.3) }
            default:
                guard let date = m.date, let clock = m.clock,
                    let local = LocalDateTime(date: date, hour: clock.0, minute: clock.1, second: clock.2)
                else { return nil }
                if let offset = m.offset {
                    // The text says its offset from UTC: that instant, whatever the zone.
                    let instant = Timestamp(secondsSinceEpoch: local.secondsAsIfUTC - Int64(offset), nanoseconds: clock.3)
                    guard instant.isWritable else { return fail("'\(text(f))' falls outside the years 0001 to 9999 in UTC") }
                    return .instant(instant)
                }
                guard let instant = zone.writableTimestamp(for: local) else {
                    return fail("'\(text(f))' in \(zone.zoneName) falls outside the years 0001 to 9999 in UTC")
                }
                return .instant(clock.3 == 0 ? instant : instant.with(nanoseconds: clock.3))
            }
        case .map(let ignoreCase):
            let entries = plan.maps[i]!
            if ignoreCase {
                let folded = Array(text(f).lowercased().utf8)
                if let hit = entries.first(where: { $0.from == folded }) { return .mapped(hit.to) }
            } else if let hit = entries.first(where: { $0.from.count == f.count && $0.from.elementsEqual(f) }) {
                return .mapped(hit.to)
            }
            let list = plan.mapLists[i]
            return fail(f.isEmpty ? "empty; expected \(list)" : "expected \(list), found '\(text(f))'")
        case .instrument:
            let instrument = plan.instruments[i]!
            if let hit = instrument.pairs.first(where: { $0.from.count == f.count && $0.from.elementsEqual(f) }) {
                return .pair(hit.base, hit.quote)
            }
            func aliased(_ code: AssetCode) -> AssetCode { plan.assetAliases.isEmpty ? code : plan.assetAliases[code.text] ?? code }
            for quote in instrument.quotes where f.count > quote.count {
                // No separator: the value ends with a quote code (`XXBTZEUR`).
                let at = f.count - quote.count
                guard UnsafeRawBufferPointer(rebasing: f[at...]).elementsEqual(quote),
                    let b = codes.code(UnsafeRawBufferPointer(rebasing: f[..<at])),
                    let q = codes.code(UnsafeRawBufferPointer(rebasing: f[at...]))
                else { continue }
                return .pair(aliased(b), aliased(q))
            }
            for separator in instrument.separators {
                // Exactly one separator, with a code on each side.
                guard let at = Self.firstIndex(of: separator, in: f, from: 0),
                    Self.firstIndex(of: separator, in: f, from: at + separator.count) == nil,
                    let b = codes.code(UnsafeRawBufferPointer(rebasing: f[..<at])),
                    let q = codes.code(UnsafeRawBufferPointer(rebasing: f[(at + separator.count)...]))
                else { continue }
                return .pair(aliased(b), aliased(q))
            }
            return fail(f.isEmpty ? "empty; expected an instrument like BTC/USD" : "'\(text(f))' is not two asset codes joined by \(instrument.description)")
        }
    }
}

extension Optional where Wrapped == [UInt8] {
    /// `body` with the bytes, or with nil when there are none.
    fileprivate func withUnsafeBytesIfPresent<R>(_ body: (UnsafeRawBufferPointer?) -> R) -> R {
        guard let self else { return body(nil) }
        return self.withUnsafeBytes { body($0) }
    }
}
