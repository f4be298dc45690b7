import TradeportCSV
import TradeportCore
import TradeportSpec

/// Building the trade, cash transaction or movement a spec's mapping names, from a row's values.
extension SpecRowValues {
    mutating func operation(
        _ record: some SpecRow, _ positions: [Int?], location: SourceLocation,
        zone: inout SourceTimeZone.Converter
    ) -> PortfolioOperation? {
        guard errors.isEmpty else { return nil }
        if !plan.numberChecks.isEmpty {
            checkNumbers()
            guard errors.isEmpty else { return nil }
        }
        guard let i = plan.rowKindColumn else {
            switch plan.spec.rows {
            case .transactions: return transaction(nil, location, zone: &zone)
            case .movements: return movement(location, zone: &zone)
            default: return trade(location, zone: &zone)
            }
        }
        switch rowKind {
        case .trade?: return trade(location, zone: &zone)
        case .leg?: return nil  // read by the group
        case .movement?: return movement(location, zone: &zone)
        case .transaction(let k)?:
            let choice = plan.transactionKinds[k].types[0]
            if case .mapping = choice { return transaction(nil, location, zone: &zone) }
            guard let type = type(choice) else { return nil }
            return transaction(type, location, zone: &zone)
        case nil:
            guard let p = positions[i], p < record.fieldCount else { return nil }
            let f = record.field(p).bytes
            var kind = matched(i, f).map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: f, as: UTF8.self)
            if let also = kindAlso(record, positions) { kind += "|" + String(decoding: also, as: UTF8.self) }
            guard case .by(let column, let trades, let transactions, let movements, let legs) = plan.spec.rows else { return nil }
            let known = trades + transactions.map(\.value) + movements + legs
            errors.append(
                FieldError(
                    column: p + 1, field: column,
                    message: "'\(kind)' is neither a trade, a transaction nor a movement of this format (\(known.joined(separator: ", ")))"))
            return nil
        }
    }

    /// The checks between the row's numbers that apply to its kind: two values further apart than
    /// allowed are an error naming both (a value the row leaves empty is not checked).
    private mutating func checkNumbers() {
        let kind: UInt8
        switch rowKind {
        case .trade?: kind = 1
        case .transaction?: kind = 2
        case .movement?: kind = 4
        case .leg?: return
        case nil:
            switch plan.spec.rows {
            case .transactions: kind = 2
            case .movements: kind = 4
            default: kind = 1
            }
        }
        for check in plan.numberChecks where check.kinds & kind != 0 {
            guard let a = number(resolve(check.a)), let b = number(resolve(check.b)), let d = a.subtracting(b) else { continue }
            let apart = d.isNegative ? d.negated : d
            if apart > check.within {
                errors.append(
                    FieldError(column: nil, field: check.name, message: "\(check.message): \(a) and \(b) are \(apart) apart, more than \(check.within)"))
            }
        }
    }

    /// Whether the row gives more than one operation (`rows.transaction: {value: [dividend, tax]}`).
    var givesSeveral: Bool {
        if case .transaction(let k)? = rowKind { return plan.transactionKinds[k].types.count > 1 || plan.alsoMovement[k] }
        if case .trade(let k)? = rowKind { return k != nil }
        return false
    }

    /// The operations a row gives after its first: one per further type of its transaction value,
    /// where that type's amount is present and not zero.
    mutating func additionalOperations(
        after first: PortfolioOperation?, location: SourceLocation,
        zone: inout SourceTimeZone.Converter
    ) -> [PortfolioOperation] {
        // A trade's transactions (a sale and the tax withheld on it): each type whose amount is
        // there and not zero, with the trade's id marked with the type.
        if case .trade(let k?)? = rowKind, let m = plan.transaction {
            var out: [PortfolioOperation] = []
            for choice in plan.transactionKinds[k].types {
                // A sign that decides the type, of a value the row leaves empty or zero: no transaction.
                if case .bySign(let c, _) = choice {
                    guard case .decimal(let d)? = values[c], !d.isZero else { continue }
                }
                guard let type = type(choice) else { continue }
                guard let amount = Self.decimal(resolve(m.source(TransactionField.amount.rawValue), type: type)), !amount.isZero else { continue }
                if case .transaction(var t)? = transaction(type, location, zone: &zone) {
                    if let id = t.externalId, id == first?.externalId { t.externalId = id + "/" + type }
                    out.append(.transaction(t))
                }
            }
            return out
        }
        guard case .transaction(let k)? = rowKind, let m = plan.transaction else { return [] }
        var out: [PortfolioOperation] = []
        for choice in plan.transactionKinds[k].types.dropFirst() {
            guard let type = type(choice) else { continue }
            guard let amount = Self.decimal(resolve(m.source(TransactionField.amount.rawValue), type: type)), !amount.isZero else { continue }
            // Its own id: the row's id, marked with the type (a dividend's tax beside the dividend).
            if case .transaction(var t)? = transaction(type, location, zone: &zone) {
                if let id = t.externalId, id == first?.externalId { t.externalId = id + "/" + type }
                out.append(.transaction(t))
            }
        }
        // A value under rows.movement too: the row's movement, with its own id.
        if plan.alsoMovement[k], errors.isEmpty, case .movement(var m)? = movement(location, zone: &zone) {
            if let id = m.externalId, id == first?.externalId { m.externalId = id + "/movement" }
            out.append(.movement(m))
        }
        return out
    }

    /// A transaction type from `rows.transaction` (nil for "from the mapping", or when the column
    /// whose sign decides has no value: an error).
    private mutating func type(_ choice: SpecPlan.TypeChoice) -> String? {
        switch choice {
        case .mapping: return nil
        case .fixed(let t): return t
        case .bySign(let c, let texts):
            if case .decimal(let d)? = values[c] { return d.isNegative ? texts.negative : texts.positive }
            errors.append(FieldError(column: nil, field: plan.spec.columns[c].name, message: "missing: its sign decides the transaction's type"))
            return nil
        case .column(let c):
            if let t = values[c]?.text, CashTransactionType(rawValue: t) != nil { return t }
            let found = values[c]?.text.map { "'\($0)' is not a transaction type" } ?? "missing: its value is the transaction's type"
            errors.append(FieldError(column: nil, field: plan.spec.columns[c].name, message: found))
            return nil
        }
    }

    private mutating func resolve(_ source: SpecPlan.Source?, type: String? = nil) -> SpecValue? {
        guard let source else { return nil }
        switch source {
        case .column(let c): return values[c]
        case .constant(let t): return .text(t)
        case .absolute(let c):
            if case .decimal(let d)? = values[c] { return .decimal(d.isNegative ? d.negated : d) }
            return nil
        case .bySign(let c, let texts):
            if case .decimal(let d)? = values[c] { return .mapped(d.isNegative ? texts.negative : texts.positive) }
            return nil
        case .part(let c, let i):
            if case .pair(let b, let q)? = values[c] { return .asset(i == 0 ? b : q) }
            return nil
        case .join(let pieces, let separator):
            // Each column's value as text (a time or date as written in the canonical form); an
            // empty part is left out with its separator (`Gift` and an empty note: `Gift`, not
            // `Gift: `); constants are kept where a column has a value, and a join whose columns
            // are all empty is no value.
            var given: [String] = []
            var anyColumn = false
            for piece in pieces {
                switch piece {
                case .text(let t):
                    given.append(t)
                case .column(let c):
                    let text: String
                    switch values[c] {
                    case .instant(let t)?: text = t.description
                    case .date(let d)?: text = d.description
                    case let v?: text = v.text ?? ""
                    case nil: text = ""
                    }
                    if !text.isEmpty {
                        given.append(text)
                        anyColumn = true
                    }
                }
            }
            if !anyColumn { given = [] }
            return given.isEmpty ? nil : .text(given.joined(separator: separator))
        case .dateAndTime:
            return nil  // read by `instant`
        case .byType(let sources):
            guard let type, let s = sources.first(where: { $0.0 == type })?.1 else { return nil }
            return resolve(s, type: type)
        case .first(let sources):
            for s in sources {
                if let v = resolve(s, type: type), v.text.map({ !$0.isEmpty }) ?? true { return v }
            }
            return nil
        case .grouped(let k):
            return groupValues[k]
        case .conditional(let c):
            return holds(c) ? resolve(c.then, type: type) : resolve(c.otherwise, type: type)
        case .parameter(let name):
            return parameters[name].map { .text($0) }
        case .arithmetic(let a):
            var operands: [ExactDecimal] = []
            for o in a.operands {
                // A missing operand makes the value missing (the field says so when it must have one);
                // a constant is a number written plainly (`{const: '0'}`).
                guard let d = number(resolve(o, type: type), context: a.text) else { return nil }
                operands.append(d)
            }
            var result: ExactDecimal? = operands[0]
            switch a.operation {
            case .neg: result = operands[0].negated
            case .abs: result = operands[0].isNegative ? operands[0].negated : operands[0]
            case .add: for d in operands.dropFirst() { result = result?.adding(d) }
            case .max: result = operands.max()
            case .min: result = operands.min()
            case .sub: for d in operands.dropFirst() { result = result?.subtracting(d) }
            case .mul: for d in operands.dropFirst() { result = result?.multiplied(by: d) }
            case .div:
                for d in operands.dropFirst() {
                    if d.isZero {
                        errors.append(FieldError(column: nil, field: nil, message: "\(a.text): division by zero"))
                        return nil
                    }
                    result = result?.divided(by: d, roundedToScale: a.round ?? 0)
                }
            }
            if let r = a.round, a.operation != .div { result = result?.divided(by: ExactDecimal(1), roundedToScale: r) }
            guard let result else {
                errors.append(FieldError(column: nil, field: nil, message: "\(a.text): beyond 38 digits"))
                return nil
            }
            return .decimal(result)
        }
    }

    private mutating func instant(_ source: SpecPlan.Source?, zone: inout SourceTimeZone.Converter) -> Timestamp? {
        guard let source else { return nil }
        let local: LocalDateTime?
        var nanoseconds: UInt32 = 0
        if case .dateAndTime(let d, let t) = source {
            guard case .date(let date)? = values[d] else { return nil }
            var clock = (0, 0, 0)
            if case .clock(let h, let m, let s, let n)? = values[t] {
                clock = (h, m, s)
                nanoseconds = n
            }
            local = LocalDateTime(date: date, hour: clock.0, minute: clock.1, second: clock.2)
        } else if case .conditional(let c) = source {
            return instant(holds(c) ? c.then : c.otherwise, zone: &zone)
        } else if case .first(let sources) = source {
            // The first alternative that gives a time (a date and a time read together count as one).
            for s in sources {
                if let t = instant(s, zone: &zone) { return t }
                if !errors.isEmpty { return nil }
            }
            return nil
        } else {
            switch resolve(source) {
            case .instant(let i)?: return i
            case .date(let d)?: local = LocalDateTime(date: d, hour: 0, minute: 0, second: 0)
            default: return nil
            }
        }
        guard let local else { return nil }
        guard let instant = zone.writableTimestamp(for: local) else {
            errors.append(FieldError(column: nil, field: "time", message: "\(local.date) in \(zone.zoneName) falls outside the years 0001 to 9999 in UTC"))
            return nil
        }
        return nanoseconds == 0 ? instant : instant.with(nanoseconds: nanoseconds)
    }

    /// Whether every test of `{if: …}` holds on the row: the column's value, as text, is one of
    /// the test's texts (an empty cell is `''`).
    private mutating func holds(_ c: SpecPlan.Conditional) -> Bool {
        if let near = c.near {
            guard let a = number(resolve(near.a)), let b = number(resolve(near.b)), let d = a.subtracting(b) else { return false }
            if (d.isNegative ? d.negated : d) > near.within { return false }
        }
        return testsHold(c)
    }

    private func testsHold(_ c: SpecPlan.Conditional) -> Bool {
        for test in c.tests {
            let text: String
            switch values[test.column] {
            case nil: text = ""
            case .date(let d)?: text = d.description
            case .instant(let t)?: text = t.description
            case let v?: text = v.text ?? ""
            }
            if !test.values.contains(text) { return false }
        }
        return true
    }

    static func decimal(_ v: SpecValue?) -> ExactDecimal? { if case .decimal(let d)? = v { return d } else { return nil } }

    /// A value as a number: a decimal, or a text (a constant like `'0'`, a text column, a mapped
    /// word) that reads as one in the canonical notation. Anything else that has a value — a text
    /// that is not a number, a date, an asset — is an error, never a silent null.
    private mutating func number(_ v: SpecValue?, field: String? = nil, context: String? = nil) -> ExactDecimal? {
        let text: String
        switch v {
        case nil: return nil
        case .decimal(let d)?: return d
        case .text(let t)?, .mapped(let t)?:
            if t.isEmpty { return nil }
            if case .success(let d) = ExactDecimal.parse(t, style: .canonical) { return d }
            text = "'\(t)' is not a number like 1234.56"
        case .asset(let a)?: text = "'\(a.text)' is an asset code, not a number"
        case .instant, .date, .clock: text = "a date or time is not a number"
        case .pair: text = "an instrument is not a number"
        case .list: text = "several values in one cell (a list: column) are not one number"
        }
        errors.append(FieldError(column: nil, field: field, message: context.map { "\($0): \(text)" } ?? text))
        return nil
    }
    private static func asset(_ v: SpecValue?) -> AssetCode? {
        switch v {
        case .asset(let a)?: return a
        case .text(let t)?, .mapped(let t)?: return AssetCode(t)
        default: return nil
        }
    }
    /// A canonical id the row carries (`format:venue-id`, or a content id `format:~hash.n`), or ""
    /// when it carries none (the conversion then makes one). A malformed one is an error.
    private mutating func canonicalId(_ v: SpecValue?) -> String? {
        guard let s = Self.text(v) else { return "" }
        let parts = s.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, FormatSpec.isValidID(parts[0]), !parts[1].isEmpty, !s.utf8.contains(where: { $0 <= 32 }) {
            return s
        }
        errors.append(FieldError(column: nil, field: "id", message: "'\(s)' is not a tradeport id (format:id, like dsx-trades:37550914)"))
        return nil
    }

    private static func text(_ v: SpecValue?) -> String? { v?.text.flatMap { $0.isEmpty ? nil : $0 } }
    private static func date(_ v: SpecValue?) -> CalendarDate? { if case .date(let d)? = v { return d } else { return nil } }

    mutating func trade(_ location: SourceLocation, zone: inout SourceTimeZone.Converter, grouped: Bool = false) -> PortfolioOperation? {
        guard let m = grouped ? plan.groupTrade : plan.trade else { return nil }
        return build(m, type: nil, location, zone: &zone).map { .trade($0) }
    }

    private mutating func movement(_ location: SourceLocation, zone: inout SourceTimeZone.Converter) -> PortfolioOperation? {
        guard let m = plan.movement else { return nil }
        return build(m, type: nil, location, zone: &zone).map { .movement($0) }
    }

    private mutating func transaction(_ kindType: String?, _ location: SourceLocation, zone: inout SourceTimeZone.Converter) -> PortfolioOperation? {
        guard let m = plan.transaction else { return nil }
        let typeText = kindType ?? resolve(m.typeField.flatMap { m.sources[$0] })?.text
        guard let typeText, CashTransactionType(rawValue: typeText) != nil else {
            errors.append(FieldError(column: nil, field: "type", message: "'\(typeText ?? "")' is not a transaction type"))
            return nil
        }
        return build(m, type: typeText, location, zone: &zone).map { .transaction($0) }
    }

    /// An operation of `Record`'s kind from the row's values, field by field as its table says:
    /// each mapped field's value checked against its definition, every problem an error. The
    /// record is built as the fields are read (a field in error takes the placeholder's value, and
    /// the record is dropped).
    @inline(__always)
    private mutating func build<Record: CanonicalRecord>(
        _ m: SpecPlan.KindMapping, type: String?, _ location: SourceLocation, zone: inout SourceTimeZone.Converter
    ) -> Record? {
        var complete = true
        var i = 0
        let record = Record.make { field -> FieldValue in
            defer { i += 1 }
            if m.idle[i] { return m.defaults[i] ?? .null }
            if let value = self.field(i, m, type: type, location, zone: &zone) { return value }
            complete = false
            return Record.placeholder[field]
        }
        guard complete, errors.isEmpty else { return nil }
        portfolio = Self.text(resolve(m.portfolio, type: type))
        return record
    }

    /// Field `i`'s value, or nil with an error when the row's value does not fit it.
    private mutating func field(
        _ i: Int, _ m: SpecPlan.KindMapping, type: String?, _ location: SourceLocation, zone: inout SourceTimeZone.Converter
    ) -> FieldValue? {
        // A transaction's type, named by the row kind or the mapping, was checked by `transaction`.
        if i == m.typeField, let type { return .text(type) }
        var value = FieldValue.null
        switch m.steps[i] {
        case .location:
            return .location(location)
        case .time:
            if let t = instant(m.sources[i], zone: &zone) { value = .time(t) }
        case .tradeFees:
            if m.grouped { return .tradeFees(groupFees) }
            var fees: [TradeFee] = []
            for fee in m.fees {
                var amount = resolve(fee.amount)
                let currency = resolve(fee.currency)
                if !Self.isList(amount), amount != nil {
                    // A constant or a text column read as a number: one that is not is an error.
                    guard let d = number(amount, field: "fees") else {
                        if errors.isEmpty { continue }
                        return nil
                    }
                    amount = .decimal(d)
                }
                if case .decimal(let d)? = amount, !Self.isList(currency) {
                    // One amount in one currency, as most rows give: no lists made for it.
                    if !d.isZero, let c = Self.asset(currency) {
                        if fees.isEmpty { fees.reserveCapacity(m.fees.count) }
                        fees.append(TradeFee(amount: d, currency: c, kind: fee.kind))
                    }
                    continue
                }
                let amounts = Self.decimals(amount)
                let currencies = Self.assets(currency)
                if amounts.count > 1, currencies.count != amounts.count {
                    return fail(
                        m.names[i], "\(amounts.count) \(fee.kind.rawValue) fee amounts but \(currencies.count) currencies: each amount needs its currency")
                }
                for (k, amount) in amounts.enumerated() where !amount.isZero && k < currencies.count {
                    fees.append(TradeFee(amount: amount, currency: currencies[k], kind: fee.kind))
                }
            }
            return .tradeFees(fees)
        case .cashFee:
            if let amount = number(resolve(m.feeAmount, type: type), field: "fee"), !amount.isZero,
                let currency = Self.asset(resolve(m.feeCurrency, type: type))
            {
                value = .cashFee(CashFee(amount: amount, currency: currency))
            }
        case let step:
            let resolved = resolve(m.sources[i], type: type)
            if case .list? = resolved {
                return fail(m.names[i], "several values in one cell (a list: column); \(m.names[i]) takes one")
            }
            switch step {
            case .id:
                guard let id = canonicalId(resolved) else { return nil }
                if !id.isEmpty { value = .text(id) }  // none given: the conversion assigns one
            case .text:
                value = .text(Self.text(resolved))
            case .asset:
                if let a = Self.asset(resolved) {
                    value = .asset(a)
                } else if let t = resolved?.text, !t.isEmpty {
                    return fail(m.names[i], "'\(t)' is not an asset code (\(AssetCode.rule))")
                }
            case .decimal(let sign):
                if let d = number(resolved, field: m.names[i]) {
                    guard sign.admits(d) else { return fail(m.names[i], "'\(d)' is not \(sign.requirement)") }
                    value = .decimal(d)
                }
            case .date:
                value = .date(Self.date(resolved))
            case .choice:
                guard let word = resolved?.text else { break }
                let words = m.words[i]
                guard words.contains(word) else {
                    return fail(m.names[i], "'\(word)' is not \(Self.oneOf(words, m.names[i]))")
                }
                value = .text(word)
            default:
                break
            }
        }
        if value.isNull, m.mustGive[i] {
            if let d = m.defaults[i] { return d }
            // A column's own error said why, when it had one.
            if errors.isEmpty { errors.append(FieldError(column: nil, field: m.names[i], message: "missing: the row gives no \(m.names[i])")) }
            return nil
        }
        return value
    }

    private mutating func fail(_ field: String, _ message: String) -> FieldValue? {
        errors.append(FieldError(column: nil, field: field, message: message))
        return nil
    }

    /// The decimals of a value: one, or the several of a `list:` column's cell (several fees of one kind).
    private static func decimals(_ v: SpecValue?) -> [ExactDecimal] {
        switch v {
        case .decimal(let d)?: return [d]
        case .list(let parts)?: return parts.compactMap { Self.decimal($0) }
        default: return []
        }
    }

    private static func isList(_ v: SpecValue?) -> Bool { if case .list? = v { return true } else { return false } }

    /// The asset codes of a value: one, or the several of a `list:` column's cell.
    private static func assets(_ v: SpecValue?) -> [AssetCode] {
        if case .list(let parts)? = v { return parts.compactMap { Self.asset($0) } }
        return Self.asset(v).map { [$0] } ?? []
    }

    /// What a choice expects: `buy or sell (the spec's map must give one of them)` for two words,
    /// `a status (complete, failed, …)` for more.
    private static func oneOf(_ words: [String], _ name: String) -> String {
        words.count == 2
            ? "\(words[0]) or \(words[1]) (the spec's map must give one of them)"
            : "a \(name) (" + words.joined(separator: ", ") + ")"
    }
}
