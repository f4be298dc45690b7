import TradeportFields
import Yams

/// Columns, checks, skips, row kinds and the mappings to canonical fields.
extension SpecParser {
    static let columnKeys = [
        "name", "header", "position", "type", "map", "ignore-case", "check", "format", "example",
        "required", "separators", "pairs", "quotes", "list", "from", "match", "empty", "for", "decimal"
    ]
    /// What `AssetCode` accepts (its `rule`, stated again here: this target does not see the
    /// model): 1–32 ASCII letters, digits and `. - / @ _ :`, the first a letter or digit, the last
    /// a letter, a digit or `@`, with a letter where there is punctuation. A pair's halves are split at `/`, so they cannot hold one.
    static func isAssetCode(_ s: Substring) -> Bool {
        func alnum(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b | 0x20 >= 97 && b | 0x20 <= 122) }
        let u = s.utf8
        guard let first = u.first, let last = u.last, u.count <= 32, alnum(first), alnum(last) || last == 64 else { return false }
        let letters = u.contains { alnum($0) && $0 > 57 }
        return u.allSatisfy { alnum($0) || (letters && ($0 == 46 || $0 == 45 || $0 == 47 || $0 == 64 || $0 == 95 || $0 == 58)) }
    }

    static let types = ["text", "id", "asset", "decimal", "datetime", "date", "time", "map", "instrument"]

    /// The columns that read well, and the names of all columns written (so that a column with a
    /// wrong type does not also make every mapping that names it an error).
    func columnsAndNames(_ node: Node) -> (columns: [ColumnSpec], names: Set<String>) {
        guard case .sequence(let sequence) = node else {
            fail(node, "columns", "expected a list of columns, each like {name: price, header: Price, type: decimal}")
            return ([], [])
        }
        var out: [ColumnSpec] = []
        var seen: Set<String> = []
        for (i, item) in sequence.enumerated() {
            let path = "columns[\(i)]"
            guard let e = entries(item, path, allowed: Self.columnKeys, what: "a column") else { continue }
            guard let name = requiredText(e, "name", "the column's name, used by the mappings and in messages") else { continue }
            let key = "columns.\(name)"
            if !seen.insert(name).inserted { fail(e.value("name")?.value, key, "a second column named '\(name)'") }
            var reference: ColumnSpec.Reference?
            let references = ["header", "position", "from"].filter { e.value($0) != nil }
            if references.count > 1 {
                fail(item, key, "give one of header, position and from, not \(references.joined(separator: " and "))")
            } else if let (_, h) = e.value("header") {
                reference = texts(h, key + ".header", "the header text and its aliases").map { .header($0) }
            } else if let (_, p) = e.value("position") {
                reference = integer(p, key + ".position", 1...16_384, "a column number (1 is the first)").map { .position($0) }
            } else if let other = optionalText(e, "from", "another column's name, whose cell this column reads with its own match") {
                reference = .from(other)
                if e.value("match") == nil {
                    fail(e.value("from")!.keyNode, key + ".from", "a column read from another's cell needs a match: what to take from it")
                }
            } else {
                fail(item, key, "missing: header (a header text), position (a column number) or from (another column)")
            }
            var match: String?
            if let (_, n) = e.value("match"), let pattern = text(n, key + ".match", "a regular expression") {
                if checkPatterns, let problem = SpecPattern.problem(pattern) {
                    fail(n, key + ".match", "'\(pattern)' is not a regular expression: \(problem)")
                } else {
                    match = pattern
                }
            }
            let empty = e.value("empty").flatMap { texts($0.value, key + ".empty", "texts that stand for an empty cell, like ['-']") } ?? []
            var kinds: [String]?
            if let (_, n) = e.value("for"), let k = texts(n, key + ".for", "the kinds of rows the column is read on (trade, transaction, movement)") {
                for kind in k where !["trade", "transaction", "movement", "leg"].contains(kind) {
                    fail(n, key + ".for", "'\(kind)' is not a kind of row (trade, transaction, movement, leg)")
                }
                kinds = k
            }
            var required = ColumnSpec.Required.yes
            if let (_, n) = e.value("required") {
                if case .mapping = n {
                    if let r = entries(n, key + ".required", allowed: ["unless-zero"], what: "when the column may be empty"),
                        let other = requiredText(r, "unless-zero", "a decimal column")
                    {
                        required = .unlessZero(other)
                    }
                } else if let b = boolean(n, key + ".required") {
                    required = b ? .yes : .no
                }
            }
            let type = columnType(e, key)
            var list: String?
            if let (keyNode, _) = e.value("list") {
                list = optionalText(e, "list", "the separator of several values in one cell, like ';'")
                if list?.isEmpty == true {
                    fail(keyNode, key + ".list", "an empty separator")
                    list = nil
                }
                switch type {
                case .text?, .asset?, .decimal?, nil: break
                default: fail(keyNode, key + ".list", "only a text, asset or decimal column holds several values")
                }
            }
            var decimal: UInt8?
            if let (keyNode, n) = e.value("decimal") {
                if case .decimal? = type {
                    if case .scalar(let s) = n, s.string == "either" {
                        decimal = 0
                    } else if let b = byte(n, key + ".decimal"), b == UInt8(ascii: ".") || b == UInt8(ascii: ",") {
                        decimal = b
                    } else {
                        fail(n, key + ".decimal", "the decimal separator must be '.', ',' or either")
                    }
                } else {
                    fail(keyNode, key + ".decimal", "only a decimal column has a decimal separator")
                }
            }
            guard let reference, let type else { continue }
            out.append(
                ColumnSpec(
                    name: name, reference: reference, required: required, type: type,
                    example: optionalText(e, "example", "an example value"), list: list, match: match, empty: empty,
                    kinds: kinds, location: location(item)))
            out[out.count - 1].decimal = decimal
        }
        // References between columns.
        let names = Set(out.map(\.name))
        for column in out {
            if case .from(let other) = column.reference {
                if let target = out.first(where: { $0.name == other }) {
                    if case .from = target.reference {
                        errors.append(
                            SpecError(
                                column.location, key: "columns.\(column.name).from",
                                "'\(other)' is itself read from another column; name the column with the cell"))
                    }
                } else if !names.contains(other) {
                    errors.append(SpecError(column.location, key: "columns.\(column.name).from", "'\(other)' is not one of the spec's columns"))
                }
            }
            if case .unlessZero(let other) = column.required {
                if let target = out.first(where: { $0.name == other }) {
                    if case .decimal = target.type {
                    } else {
                        errors.append(SpecError(column.location, key: "columns.\(column.name).required", "'\(other)' is not a decimal column"))
                    }
                } else if !names.contains(other) {
                    errors.append(SpecError(column.location, key: "columns.\(column.name).required", "'\(other)' is not one of the spec's columns"))
                }
            }
        }
        return (out, seen)
    }

    private func columnType(_ e: Entries, _ key: String) -> ValueType? {
        let mapNode = e.value("map")
        let typeText = optionalText(e, "type", "a type (\(Self.types.joined(separator: ", ")))") ?? (mapNode != nil ? "map" : "text")
        let typeNode = e.value("type")?.value ?? e.node
        func unexpected(_ keys: [String]) {
            for k in keys where e.value(k) != nil { fail(e.value(k)!.keyNode, key + "." + k, "not used by a column of type \(typeText)") }
        }
        switch typeText {
        case "text", "id", "asset":
            unexpected(["map", "ignore-case", "check", "format", "separators", "pairs", "quotes", "decimal"])
            return typeText == "text" ? .text : typeText == "id" ? .id : .asset
        case "decimal":
            unexpected(["map", "ignore-case", "format", "separators", "pairs"])
            var check = DecimalCheck.nonNegative
            if let t = optionalText(e, "check", "a check (\(DecimalCheck.allCases.map(\.rawValue).joined(separator: ", ")))") {
                guard let c = DecimalCheck(rawValue: t) else {
                    fail(e.value("check")?.value, key + ".check", "'\(t)' is not a check (\(DecimalCheck.allCases.map(\.rawValue).joined(separator: ", ")))")
                    return nil
                }
                check = c
            }
            return .decimal(check)
        case "datetime", "date", "time":
            unexpected(["map", "ignore-case", "check", "separators", "pairs"])
            guard let pattern = requiredText(e, "format", "a pattern like dd.MM.yyyy HH:mm:ss") else { return nil }
            if let problem = TimePattern.problem(pattern, kind: typeText) {
                fail(e.value("format")?.value, key + ".format", "'\(pattern)': \(problem)")
                return nil
            }
            return typeText == "datetime" ? .dateTime(pattern) : typeText == "date" ? .date(pattern) : .time(pattern)
        case "map":
            unexpected(["check", "format", "separators", "pairs"])
            guard let (_, n) = mapNode else {
                fail(typeNode, key + ".map", "missing; expected the values and what they stand for, like {Buy: buy, Sell: sell}")
                return nil
            }
            guard case .mapping(let mapping) = n else {
                fail(n, key + ".map", "expected a mapping of source values to canonical ones, like {Покупка: buy}")
                return nil
            }
            var entries: [ValueMapEntry] = []
            for (k, v) in mapping {
                guard let from = text(k, key + ".map", "a source value"), let to = text(v, key + ".map." + from, "a canonical value") else { continue }
                entries.append(ValueMapEntry(from: from, to: to))
            }
            if entries.isEmpty { fail(n, key + ".map", "an empty map") }
            let ignoreCase = e.value("ignore-case").flatMap { boolean($0.value, key + ".ignore-case") } ?? false
            return .map(entries, ignoreCase: ignoreCase)
        case "instrument":
            unexpected(["map", "ignore-case", "check", "format"])
            let separators = e.value("separators").flatMap { texts($0.value, key + ".separators", "separators like / or -") } ?? ["/", "-", "_", ":"]
            var pairs: [ValueMapEntry] = []
            if let n = e.value("pairs")?.value {
                guard case .mapping(let mapping) = n else {
                    fail(n, key + ".pairs", "expected a mapping of source values to BASE/QUOTE, like {XXBTZUSD: BTC/USD}")
                    return nil
                }
                for (k, v) in mapping {
                    guard let from = text(k, key + ".pairs", "a source value"),
                        let to = text(v, key + ".pairs." + from, "a pair like BTC/USD")
                    else { continue }
                    let parts = to.split(separator: "/", omittingEmptySubsequences: false)
                    guard parts.count == 2, parts.allSatisfy(Self.isAssetCode) else {
                        fail(v, key + ".pairs." + from, "'\(to)' is not BASE/QUOTE (two asset codes joined by /)")
                        continue
                    }
                    pairs.append(ValueMapEntry(from: from, to: to.uppercased()))
                }
            }
            let quotes = e.value("quotes").flatMap { texts($0.value, key + ".quotes", "quote codes a value may end with, like [ZEUR, EUR]") } ?? []
            return .instrument(separators: separators, pairs: pairs, quotes: quotes)
        default:
            fail(typeNode, key + ".type", "'\(typeText)' is not a type (\(Self.types.joined(separator: ", ")))")
            return nil
        }
    }

    func checks(_ node: Node, _ names: Set<String>) -> (text: [CrossCheck], numbers: [NumberCheck]) {
        guard case .sequence(let sequence) = node else {
            fail(node, "checks", "expected a list of checks, each like {column: instrument, equals: '{base}{quote}', message: …}")
            return ([], [])
        }
        var out: [CrossCheck] = []
        var numbers: [NumberCheck] = []
        for (i, item) in sequence.enumerated() {
            let path = "checks[\(i)]"
            // {near: [a, b], within: '0.01', for: [trade], message}: two numbers of the row.
            if case .mapping(let m) = item, m.keys.contains(where: { $0.string == "near" }) {
                guard let e = entries(item, path, allowed: ["near", "within", "for", "message"], what: "a check between numbers"),
                    let message = requiredText(e, "message", "the message when the check fails")
                else { continue }
                guard let (_, v) = e.value("near"), case .sequence(let items) = v, items.count == 2,
                    let a = fieldSource(items[0], path + ".near[0]", names), let b = fieldSource(items[1], path + ".near[1]", names)
                else {
                    fail(e.value("near")?.value ?? item, path + ".near", "expected two values, like [{mul: [quantity, price]}, amount]")
                    continue
                }
                numbersOnly(a, item, path + ".near[0]")
                numbersOnly(b, item, path + ".near[1]")
                guard let within = requiredText(e, "within", "how far apart the two may be, a number like '0.01'") else { continue }
                if !Self.isPlainNumber(within) || within.hasPrefix("-") {
                    fail(e.value("within")?.value, path + ".within", "'\(within)' is not a number like '0.01'")
                }
                var kinds: [String]?
                if let (_, n) = e.value("for"), let k = texts(n, path + ".for", "the kinds of rows checked (trade, transaction, movement)") {
                    for kind in k where !["trade", "transaction", "movement"].contains(kind) {
                        fail(n, path + ".for", "'\(kind)' is not a kind of row (trade, transaction, movement)")
                    }
                    kinds = k
                }
                numbers.append(NumberCheck(a: a, b: b, within: within, kinds: kinds, message: message, location: location(item)))
                continue
            }
            guard let e = entries(item, path, allowed: ["column", "equals", "lowercase", "message"], what: "a check"),
                let column = requiredText(e, "column", "the column checked"),
                let equals = requiredText(e, "equals", "a template like {base}{quote}"),
                let message = requiredText(e, "message", "the message when the check fails")
            else { continue }
            if !names.contains(column) { fail(e.value("column")?.value, path + ".column", "'\(column)' is not one of the spec's columns") }
            for name in Template.names(equals) where !names.contains(name) {
                fail(e.value("equals")?.value, path + ".equals", "{\(name)} is not one of the spec's columns")
            }
            let lowercase = e.value("lowercase").flatMap { boolean($0.value, path + ".lowercase") } ?? false
            out.append(CrossCheck(column: column, equals: equals, lowercase: lowercase, message: message, location: location(item)))
        }
        return (out, numbers)
    }

    func skipRules(_ node: Node, _ names: Set<String>) -> [SkipRule] {
        guard case .sequence(let sequence) = node else {
            fail(node, "skip", "expected a list of rules, each like {column: Status, equals: Cancelled, reason: cancelled order}")
            return []
        }
        var out: [SkipRule] = []
        for (i, item) in sequence.enumerated() {
            let path = "skip[\(i)]"
            guard let e = entries(item, path, allowed: ["column", "equals", "reason", "and"], what: "a skip rule"),
                let column = requiredText(e, "column", "the column looked at"),
                let (_, equalsNode) = e.value("equals")
                    ?? {
                        fail(item, path + ".equals", "missing; expected the values that skip a row")
                        return nil
                    }(),
                let equals = texts(equalsNode, path + ".equals", "the values that skip a row"),
                let reason = requiredText(e, "reason", "the reason given for each skipped row")
            else { continue }
            if !names.contains(column) { fail(e.value("column")?.value, path + ".column", "'\(column)' is not one of the spec's columns") }
            var conditions: [SkipCondition] = []
            if let (_, n) = e.value("and") {
                let items: [Node]
                if case .sequence(let s) = n { items = Array(s) } else { items = [n] }
                for (k, c) in items.enumerated() {
                    let p = "\(path).and[\(k)]"
                    guard let ce = entries(c, p, allowed: ["column", "equals"], what: "a further condition"),
                        let cc = requiredText(ce, "column", "the column looked at"),
                        let (_, en) = ce.value("equals")
                            ?? {
                                fail(c, p + ".equals", "missing")
                                return nil
                            }(),
                        let values = texts(en, p + ".equals", "the values that meet it ('' for an empty cell)")
                    else { continue }
                    if !names.contains(cc) { fail(ce.value("column")?.value, p + ".column", "'\(cc)' is not one of the spec's columns") }
                    conditions.append(SkipCondition(column: cc, equals: values))
                }
            }
            out.append(SkipRule(column: column, equals: equals, reason: reason, and: conditions, location: location(item)))
        }
        return out
    }

    func rowKinds(_ node: Node, _ names: Set<String>) -> RowKinds? {
        guard
            let e = entries(
                node, "rows", allowed: ["kind", "by", "trade", "transaction", "movement", "legs"], what: "which rows are trades, transactions or movements")
        else { return nil }
        if let kind = optionalText(e, "kind", "trade, transaction or movement") {
            for k in ["by", "trade", "transaction", "movement", "legs"] where e.value(k) != nil {
                fail(e.value(k)!.keyNode, "rows." + k, "not used with rows.kind")
            }
            switch kind {
            case "trade": return .trades
            case "transaction": return .transactions
            case "movement": return .movements
            default:
                fail(e.value("kind")?.value, "rows.kind", "'\(kind)' is not trade, transaction or movement")
                return nil
            }
        }
        let column: String
        if let (_, n) = e.value("by"), case .sequence = n {
            // Two columns: the second tells rows of one value apart (`Send|ETH2`, `Övrigt|` for empty).
            guard let pair = texts(n, "rows.by", "one or two column names"), (1...2).contains(pair.count) else {
                fail(n, "rows.by", "expected one or two column names, like [type, asset]")
                return nil
            }
            column = pair[0]
            if pair.count == 2 {
                rowKindAlso = pair[1]
                if !names.contains(pair[1]) { fail(n, "rows.by", "'\(pair[1])' is not one of the spec's columns") }
            }
        } else {
            guard let one = requiredText(e, "by", "the column whose value says what a row is (or kind: trade / transaction / movement)") else { return nil }
            column = one
        }
        if !names.contains(column) { fail(e.value("by")?.value, "rows.by", "'\(column)' is not one of the spec's columns") }
        let trade = e.value("trade").flatMap { texts($0.value, "rows.trade", "the values of trades") } ?? []
        var transaction: [RowTransaction] = []
        if let (_, n) = e.value("transaction") {
            if case .sequence = n {
                // Values whose rows are transactions, with the type from the transaction mapping.
                transaction = (texts(n, "rows.transaction", "the values of transactions") ?? []).map { RowTransaction(value: $0, types: [.mapping]) }
            } else if case .mapping(let mapping) = n {
                for (k, v) in mapping {
                    guard let from = text(k, "rows.transaction", "a value") else { continue }
                    let path = "rows.transaction." + from
                    let rules: [TypeRule]
                    if case .sequence(let items) = v {
                        // One row, several transactions (a dividend and its withholding tax).
                        rules = items.compactMap { typeRule($0, path, names) }
                        if rules.count < 2 { fail(v, path, "a list gives several types for one row: name two or more") }
                        if rules.contains(.mapping) { fail(v, path, "each type of a row that gives several must be named") }
                    } else {
                        rules = typeRule(v, path, names).map { [$0] } ?? []
                    }
                    if !rules.isEmpty { transaction.append(RowTransaction(value: from, types: rules)) }
                }
            } else {
                fail(n, "rows.transaction", "expected a mapping of values to transaction types, like {Deposit: deposit}")
            }
        }
        let movement = e.value("movement").flatMap { texts($0.value, "rows.movement", "the values of movements") } ?? []
        let legs = e.value("legs").flatMap { texts($0.value, "rows.legs", "the values of rows that are legs of trades over several rows") } ?? []
        if trade.isEmpty && transaction.isEmpty && movement.isEmpty && legs.isEmpty {
            fail(node, "rows", "no value makes a row a trade, a transaction or a movement")
        }
        // A value says one kind: listed under two, one of them would silently never apply.
        var kindOf: [String: String] = [:]
        for (kind, values) in [("trade", trade), ("transaction", transaction.map(\.value)), ("movement", movement), ("legs", legs)] {
            for value in values {
                // Under transaction and movement both, a row gives one of each (a redemption:
                // money in, units out); under trade and transaction, the trade and each of the
                // transaction's types whose amount is not zero (a sale and the tax withheld on it).
                if kindOf[value] == "transaction" && kind == "movement" { continue }
                if kindOf[value] == "trade" && kind == "transaction" { continue }
                if let earlier = kindOf[value], earlier != kind {
                    fail(e.value(kind)?.value ?? node, "rows.\(kind)", "'\(value)' is also under rows.\(earlier): a value makes a row one kind")
                } else if kindOf[value] == kind, kind != "transaction" {
                    fail(e.value(kind)?.value ?? node, "rows.\(kind)", "'\(value)' is listed twice")
                }
                kindOf[value] = kindOf[value] ?? kind
            }
        }
        return .by(column: column, trade: trade, transaction: transaction, movement: movement, legs: legs)
    }

    /// A type in `rows.transaction`: a type, or `{sign-of: column, positive: type, negative: type}`.
    private func typeRule(_ node: Node, _ path: String, _ names: Set<String>) -> TypeRule? {
        func known(_ type: String, _ at: Node) -> Bool {
            if Self.transactionTypes.contains(type) { return true }
            fail(at, path, "'\(type)' is not a transaction type (\(Self.transactionTypes.joined(separator: ", ")))")
            return false
        }
        if case .scalar(let s) = node { return known(s.string, node) ? .fixed(s.string) : nil }
        if case .mapping(let m) = node, m.count == 1, case .scalar(let k)? = m.first?.key, k.string == "from" {
            // {from: column}: the type is the column's value (a map column's word) on each row.
            guard let e = entries(node, path, allowed: ["from"], what: "a type from a column"),
                let column = requiredText(e, "from", "the column whose value is the type")
            else { return nil }
            if !names.contains(column) { fail(e.value("from")?.value, path + ".from", "'\(column)' is not one of the spec's columns") }
            return .column(column)
        }
        guard let e = entries(node, path, allowed: ["sign-of", "positive", "negative"], what: "a type by the sign of a column, or {from: column}"),
            let column = requiredText(e, "sign-of", "the signed decimal column whose sign decides the type"),
            let positive = requiredText(e, "positive", "the type of a value of zero or more"),
            let negative = requiredText(e, "negative", "the type of a value below zero")
        else { return nil }
        if !names.contains(column) { fail(e.value("sign-of")?.value, path + ".sign-of", "'\(column)' is not one of the spec's columns") }
        guard known(positive, e.value("positive")!.value), known(negative, e.value("negative")!.value) else { return nil }
        return .bySign(column: column, positive: positive, negative: negative)
    }

    /// `group:`: rows that together make trades.
    func groupRule(_ node: Node, _ names: Set<String>) -> GroupRule? {
        guard
            let e = entries(
                node, "group", allowed: ["key", "asset", "amount", "fee", "leg-fee", "quotes", "round"],
                what: "how rows make trades together")
        else { return nil }
        func column(_ key: String, _ expected: String, required: Bool = true) -> String? {
            let c = required ? requiredText(e, key, expected) : optionalText(e, key, expected)
            if let c, !names.contains(c) { fail(e.value(key)?.value, "group." + key, "'\(c)' is not one of the spec's columns") }
            return c
        }
        let key = e.value("key").flatMap { texts($0.value, "group.key", "the columns whose values the rows of one trade share") }
        if e.value("key") == nil { fail(node, "group.key", "missing; expected the columns the rows of one trade share, like [refid]") }
        for k in key ?? [] where !names.contains(k) { fail(e.value("key")?.value, "group.key", "'\(k)' is not one of the spec's columns") }
        let asset = column("asset", "the column of each row's asset")
        let amount = column("amount", "the column of each row's signed amount (+ came in, − went out)")
        var feeColumn: String?
        var feeValues: [String] = []
        if let (_, n) = e.value("fee") {
            if let f = entries(n, "group.fee", allowed: ["column", "equals"], what: "which rows are fees"),
                let c = requiredText(f, "column", "the column that says a row is a fee"),
                let (_, v) = f.value("equals")
                    ?? {
                        fail(n, "group.fee.equals", "missing; expected the values of fee rows")
                        return nil
                    }(),
                let values = texts(v, "group.fee.equals", "the values of fee rows")
            {
                if !names.contains(c) { fail(f.value("column")?.value, "group.fee.column", "'\(c)' is not one of the spec's columns") }
                feeColumn = c
                feeValues = values
            }
        }
        let legFee = column("leg-fee", "a column of each row holding a fee in its asset", required: false)
        let quotes = e.value("quotes").flatMap { texts($0.value, "group.quotes", "asset codes, the strongest quote first") } ?? []
        let scale = e.value("round").flatMap { integer($0.value, "group.round", 0...30, "digits after the point of the price") } ?? 12
        guard let key, let asset, let amount else { return nil }
        return GroupRule(
            key: key, asset: asset, amount: amount, feeColumn: feeColumn, feeValues: feeValues, legFee: legFee,
            quotes: quotes, priceScale: scale, location: location(node))
    }

    // MARK: - Mappings

    /// An operation mapping (`trade:`, `transaction:`) for a kind whose field table is `table`.
    /// Fields in `given` come from elsewhere (`givenBy`: a group, rows.transaction): not required
    /// here, and an error when written (they would be ignored).
    func mapping(
        _ node: Node, _ what: String, _ table: [FieldEntry], _ names: Set<String>,
        given: [String] = [], givenBy: String = ""
    ) -> OperationMapping? {
        guard let e = entries(node, what, allowed: Self.mappable(table), what: "where each \(what) field comes from") else { return nil }
        var out = OperationMapping(fields: [], fees: [], location: location(node))
        for field in table where field.definition.readerMustGive && e.value(field.name) == nil && !given.contains(field.name) {
            fail(node, "\(what).\(field.name)", "missing; a \(what) needs its \(field.name)")
        }
        for name in given {
            if let (keyNode, _) = e.value(name) { fail(keyNode, "\(what).\(name)", "given by \(givenBy); remove it here") }
        }
        for (key, _, value) in e.pairs {
            let path = "\(what).\(key)"
            let type = table.first { $0.name == key }?.definition.type
            if type == .tradeFees {
                out.fees = fees(value, path, names)
                continue
            }
            if type == .cashFee {
                guard let f = entries(value, path, allowed: ["amount", "currency"], what: "the fee: its amount and currency") else { continue }
                if let (_, a) = f.value("amount"), let amount = fieldSource(a, path + ".amount", names) { out.fields.append((key + ".amount", amount)) }
                if let (_, c) = f.value("currency"), let currency = fieldSource(c, path + ".currency", names) {
                    out.fields.append((key + ".currency", currency))
                }
                if f.value("amount") == nil { fail(value, path + ".amount", "missing") }
                continue
            }
            if let source = fieldSource(value, path, names) {
                if case .decimal? = type { numbersOnly(source, value, path) }
                out.fields.append((key, source))
            }
        }
        for fee in out.fees { numbersOnly(fee.amount, node, "\(what).fees") }
        if let amount = out.source(of: "fee.amount") { numbersOnly(amount, node, "\(what).fee.amount") }
        return out
    }

    /// Refuses a constant that is not a number where a number is taken (`amount: {const: N}`, an
    /// operand of `add`): convert would find no number in it on any row.
    func numbersOnly(_ source: FieldSource, _ node: Node, _ path: String) {
        switch source {
        case .constant(let t):
            if !Self.isPlainNumber(t) { fail(node, path, "'\(t)' is not a number like 1234.56 or -0.5, and this value is one") }
        case .first(let sources): for s in sources { numbersOnly(s, node, path) }
        case .byType(let sources): for s in sources { numbersOnly(s.source, node, path) }
        case .arithmetic(_, let operands, _): for s in operands { numbersOnly(s, node, path) }
        case .conditional(let condition, let then, let otherwise):
            if let near = condition.near {
                numbersOnly(near.a, node, path)
                numbersOnly(near.b, node, path)
            }
            numbersOnly(then, node, path)
            if let otherwise { numbersOnly(otherwise, node, path) }
        default: break
        }
    }

    /// `-12.5`, `0`, `1234.56`: the plain notation a constant number is written in.
    static func isPlainNumber(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "-" { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return false }
        return true
    }

    private func fees(_ node: Node, _ path: String, _ names: Set<String>) -> [FeeMapping] {
        guard case .sequence(let sequence) = node else {
            fail(node, path, "expected a list of fees, each like {amount: Fee, currency: Fee Currency, kind: broker}")
            return []
        }
        var out: [FeeMapping] = []
        for (i, item) in sequence.enumerated() {
            let p = "\(path)[\(i)]"
            guard let e = entries(item, p, allowed: ["amount", "currency", "kind"], what: "a fee") else { continue }
            let amount = e.value("amount").flatMap { fieldSource($0.value, p + ".amount", names) }
            let currency = e.value("currency").flatMap { fieldSource($0.value, p + ".currency", names) }
            let kind = optionalText(e, "kind", "broker, exchange, clearing or other") ?? "other"
            if !Self.feeKinds.contains(kind) {
                fail(e.value("kind")?.value, p + ".kind", "'\(kind)' is not a fee kind (\(Self.feeKinds.joined(separator: ", ")))")
            }
            if e.value("amount") == nil { fail(item, p + ".amount", "missing") }
            if e.value("currency") == nil { fail(item, p + ".currency", "missing") }
            if let amount, let currency { out.append(FeeMapping(amount: amount, currency: currency, kind: kind)) }
        }
        return out
    }

    /// A column name, or {const}, {date, time}, {join, separator}, {base-of}/{quote-of}, {by-type}, {abs}.
    func fieldSource(_ node: Node, _ path: String, _ names: Set<String>) -> FieldSource? {
        func known(_ column: String, _ at: Node) -> Bool {
            if names.contains(column) { return true }
            fail(at, path, "'\(column)' is not one of the spec's columns (\(names.sorted().joined(separator: ", ")))")
            return false
        }
        if case .scalar(let s) = node {
            return known(s.string, node) ? .column(s.string) : nil
        }
        let operations = ArithmeticOperation.allCases.filter { $0 != .abs }.map(\.rawValue)
        let keys =
            [
                "const", "date", "time", "join", "separator", "base-of", "quote-of", "by-type", "abs", "sign-of", "positive", "negative",
                "first", "round", "if", "then", "else", "param"
            ] + operations
        guard let e = entries(node, path, allowed: keys, what: "a value's source") else { return nil }
        if let c = optionalText(e, "const", "a constant") { return .constant(c) }
        if let p = optionalText(e, "param", "a parameter's name") {
            guard parameterNames.contains(p) else {
                fail(
                    e.value("param")?.value, path + ".param", "'\(p)' is not one of the spec's parameters (\(parameterNames.sorted().joined(separator: ", ")))")
                return nil
            }
            return .parameter(p)
        }
        if let (_, n) = e.value("if") {
            // {if: {column: value or [values], …}, then: source, else: source}
            guard case .mapping(let mapping) = n, !mapping.isEmpty else {
                fail(n, path + ".if", "expected a mapping of columns to the values they must hold, like {side: sell} or {type: [Deposit, Top up]}")
                return nil
            }
            var tests: [(column: String, values: [String])] = []
            var near: (a: FieldSource, b: FieldSource, within: String)?
            for (k, v) in mapping {
                guard let column = text(k, path + ".if", "a column's name") else { continue }
                if column == "within" { continue }
                if column == "near" {
                    // {near: [a, b], within: '0.01'}: two numbers at most that far apart.
                    guard case .sequence(let items) = v, items.count == 2,
                        let a = fieldSource(items[0], path + ".if.near[0]", names), let b = fieldSource(items[1], path + ".if.near[1]", names)
                    else {
                        fail(v, path + ".if.near", "expected two values, like [{mul: [quantity, price]}, amount]")
                        continue
                    }
                    guard let w = mapping.first(where: { if case .scalar(let s) = $0.key { s.string == "within" } else { false } })?.value,
                        let within = text(w, path + ".if.within", "a number"), Self.isPlainNumber(within), !within.hasPrefix("-")
                    else {
                        fail(v, path + ".if.within", "near needs within: how far apart the two may be, a number like '0.01'")
                        continue
                    }
                    near = (a, b, within)
                    continue
                }
                guard known(column, k) else { continue }
                let values: [String]?
                if case .sequence = v {
                    values = texts(v, path + ".if." + column, "the values the column must hold (one of them)")
                } else {
                    values = text(v, path + ".if." + column, "a value the column must hold").map { [$0] }
                }
                if let values { tests.append((column, values)) }
            }
            guard let (_, t) = e.value("then") else {
                fail(node, path + ".then", "missing; expected the value when the condition holds")
                return nil
            }
            guard let then = fieldSource(t, path + ".then", names) else { return nil }
            var otherwise: FieldSource?
            if let (_, o) = e.value("else") {
                guard let source = fieldSource(o, path + ".else", names) else { return nil }
                otherwise = source
            }
            for key in ["const", "first", "join", "date", "time", "abs", "sign-of", "by-type", "base-of", "quote-of", "round"] + operations
            where e.value(key) != nil {
                fail(e.value(key)!.keyNode, path + "." + key, "not used with if: put it under then or else")
            }
            return .conditional(Condition(tests, near: near), then: then, otherwise: otherwise)
        }
        for key in ["then", "else"] where e.value(key) != nil {
            fail(e.value(key)!.keyNode, path + "." + key, "used only with if")
        }
        if let op = operations.first(where: { e.value($0) != nil }), let operation = ArithmeticOperation(rawValue: op) {
            let (_, n) = e.value(op)!
            let round = e.value("round").flatMap { integer($0.value, path + ".round", 0...30, "digits after the point") }
            var operands: [FieldSource] = []
            if case .sequence(let items) = n {
                for (k, item) in items.enumerated() {
                    if let source = fieldSource(item, "\(path).\(op)[\(k)]", names) { operands.append(source) } else { return nil }
                }
            } else if let source = fieldSource(n, "\(path).\(op)", names) {
                operands = [source]
            } else {
                return nil
            }
            if operation == .neg ? operands.count != 1 : operands.count < 2 {
                fail(n, path + "." + op, operation == .neg ? "neg takes one value" : "\(op) takes a list of two or more values")
                return nil
            }
            if operation == .div && round == nil && e.value("round") == nil {
                fail(n, path + ".div", "a quotient needs round: the digits after the point it is rounded to (half away from zero)")
                return nil
            }
            return .arithmetic(operation, operands, round: round)
        }
        if let (_, n) = e.value("first") {
            guard case .sequence(let items) = n, items.count >= 2 else {
                fail(n, path + ".first", "expected a list of two or more values, the first that has one is taken")
                return nil
            }
            var sources: [FieldSource] = []
            for (k, item) in items.enumerated() {
                if let source = fieldSource(item, "\(path).first[\(k)]", names) { sources.append(source) } else { return nil }
            }
            return .first(sources)
        }
        if e.value("date") != nil || e.value("time") != nil {
            guard let d = requiredText(e, "date", "the date column"), let t = requiredText(e, "time", "the time column"),
                known(d, e.value("date")!.value), known(t, e.value("time")!.value)
            else { return nil }
            return .dateAndTime(date: d, time: t)
        }
        if let (_, n) = e.value("join") {
            guard case .sequence(let items) = n else {
                fail(n, path + ".join", "expected a list of the columns joined (and {const: text} among them)")
                return nil
            }
            var parts: [JoinPart] = []
            for (k, item) in items.enumerated() {
                if case .scalar(let s) = item {
                    guard known(s.string, item) else { return nil }
                    parts.append(.column(s.string))
                } else if let c = entries(item, "\(path).join[\(k)]", allowed: ["const"], what: "a constant text, {const: text}"),
                    let t = requiredText(c, "const", "the text")
                {
                    parts.append(.text(t))
                } else {
                    return nil
                }
            }
            if !parts.contains(where: { if case .column = $0 { true } else { false } }) {
                fail(n, path + ".join", "a join needs a column: of constants alone write {const: text}")
                return nil
            }
            return .join(parts, separator: optionalText(e, "separator", "a separator") ?? "")
        }
        if let c = optionalText(e, "base-of", "an instrument column") { return known(c, node) ? .part(c, 0) : nil }
        if let c = optionalText(e, "quote-of", "an instrument column") { return known(c, node) ? .part(c, 1) : nil }
        if let (_, n) = e.value("abs") {
            if case .scalar(let s) = n { return known(s.string, n) ? .absolute(s.string) : nil }
            // The absolute value of a derived value: `{abs: {add: [amount, fee]}}`.
            return fieldSource(n, path + ".abs", names).map { .arithmetic(.abs, [$0], round: nil) }
        }
        if let c = optionalText(e, "sign-of", "a signed decimal column") {
            guard let p = requiredText(e, "positive", "what a value of zero or more stands for, like deposit"),
                let n = requiredText(e, "negative", "what a value below zero stands for, like withdrawal"),
                known(c, node)
            else { return nil }
            return .bySign(c, positive: p, negative: n)
        }
        if let (_, n) = e.value("by-type") {
            guard case .mapping(let mapping) = n else {
                fail(n, path + ".by-type", "expected a mapping of transaction types to sources, like {deposit: To, withdrawal: From}")
                return nil
            }
            var sources: [(type: String, source: FieldSource)] = []
            for (k, v) in mapping {
                guard let type = text(k, path + ".by-type", "a transaction type") else { continue }
                if !Self.transactionTypes.contains(type) { fail(k, path + ".by-type", "'\(type)' is not a transaction type") }
                if let source = fieldSource(v, path + ".by-type." + type, names) { sources.append((type, source)) }
            }
            return .byType(sources)
        }
        fail(
            node, path,
            "expected a column name or one of {const}, {date, time}, {join}, {base-of}, {quote-of}, {abs}, {sign-of, positive, negative}, {by-type}, {first}, {if, then, else}, {add}, {sub}, {mul}, {div, round}, {max}, {min}, {neg}"
        )
        return nil
    }
}

/// `{name}` placeholders in check templates.
enum Template {
    static func names(_ template: String) -> [String] {
        var out: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }
}

/// Date and time patterns: `yyyy MM M dd d HH H mm ss`, `[.F]` (an optional fraction of a second)
/// and literal characters.
enum TimePattern {
    /// Why `pattern` is not a pattern for `kind` (datetime, date, time), or nil.
    static func problem(_ pattern: String, kind: String) -> String? {
        var tokens: Set<String> = []
        // `[.F]`: an optional fraction of a second (up to nanoseconds); `'text'`: literal text.
        var pattern = pattern.replacingOccurrences(of: "[.F]", with: "")
        var unquoted = ""
        var quoted = false
        for c in pattern {
            if c == "'" {
                quoted.toggle()
                continue
            }
            if !quoted { unquoted.append(c) }
        }
        if quoted { return "a quote (') is not closed" }
        pattern = unquoted
        var i = pattern.startIndex
        let runs = ["yyyy", "yy", "MM", "M", "MMM", "MMMM", "dd", "d", "HH", "H", "hh", "h", "mm", "ss", "a", "xxx", "XXX"]
        // Every bad part is named, not only the first.
        var bad: [String] = []
        while i < pattern.endIndex {
            let c = pattern[i]
            if "yMdHhmsaxX".contains(c) {
                var j = i
                while j < pattern.endIndex && pattern[j] == c { j = pattern.index(after: j) }
                let token = String(pattern[i..<j])
                if !runs.contains(token) {
                    bad.append("'\(token)' is not a pattern letter run (\(runs.joined(separator: ", ")))")
                } else if !tokens.insert(String(c)).inserted {
                    bad.append("'\(c)' appears twice")
                }
                i = j
            } else if c.isLetter && c != "T" && c != "Z" {
                var j = i
                while j < pattern.endIndex && pattern[j] == c { j = pattern.index(after: j) }
                bad.append("'\(pattern[i..<j])' is not a pattern letter (y, M, d, H, h, m, s, a, xxx, XXX) or the literal T or Z; quote other text, like 'UTC'")
                i = j
            } else {
                i = pattern.index(after: i)
            }
        }
        if !bad.isEmpty { return bad.joined(separator: "; ") }
        if tokens.contains("H") && (tokens.contains("h") || tokens.contains("a")) {
            return "HH is a 24-hour clock: a 12-hour one is hh (or h) with a (AM or PM)"
        }
        if tokens.contains("h") != tokens.contains("a") { return "a 12-hour clock needs both hh (or h) and a (AM or PM)" }
        if tokens.contains("x") && tokens.contains("X") { return "one offset: xxx (+02:00) or XXX (+02:00, or Z for UTC)" }
        if (tokens.contains("x") || tokens.contains("X")) && kind != "datetime" { return "an offset from UTC (xxx, XXX) belongs to a datetime" }
        let date = tokens.isSuperset(of: ["y", "M", "d"])
        let time = tokens.contains("m") && (tokens.contains("H") || tokens.contains("h"))
        let hasTime = tokens.contains("H") || tokens.contains("h")
        switch kind {
        case "datetime": return date && time ? nil : "a datetime needs yyyy (or yy), MM (or M, MMM), dd (or d), HH (or hh with a) and mm"
        case "date": return date && !hasTime ? nil : "a date needs yyyy, MM (or M, MMM) and dd (or d), and no time"
        default: return time && !tokens.contains("y") ? nil : "a time needs HH (or hh with a) and mm, and no date"
        }
    }
}
