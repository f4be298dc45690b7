import TradeportFields
import Yams

/// The spec's own keys and their meanings (see `FormatSpec`).
extension SpecParser {
    static let topKeys = [
        "tradeport-format", "id", "description", "source", "values", "detect", "columns", "checks",
        "skip", "rows", "group", "trade", "transaction", "movement", "assets", "balance", "parameters", "wrapped", "layouts"
    ]
    // The vocabulary of `trade:` and `transaction:`, derived from the model's field tables: every
    // field a reader fills (not the location), and `portfolio` (where the operation goes).
    static let tradeFields = mappable(OperationKind.trade.fields)
    static let tradeRequired = OperationKind.trade.fields.filter(\.definition.readerMustGive).map(\.name)
    static let transactionFields = mappable(OperationKind.transaction.fields)
    static let transactionRequired = OperationKind.transaction.fields.filter(\.definition.readerMustGive).map(\.name)
    static let transactionTypes = CashTransactionType.words
    static let feeKinds = FeeKind.words

    /// The keys of an operation mapping for a kind whose table is `fields`.
    static func mappable(_ fields: [FieldEntry]) -> [String] {
        fields.filter { $0.definition.type != .location }.map(\.name) + ["portfolio"]
    }

    func spec(_ root: Node) -> FormatSpec? {
        guard let top = entries(root, "", allowed: Self.topKeys, what: "a spec") else { return nil }
        if let version = requiredText(top, "tradeport-format", "1, the version of the spec language"), version != String(SpecLoader.version) {
            fail(top.value("tradeport-format")?.value, "tradeport-format", "'\(version)' is not a version this tradeport reads (\(SpecLoader.version))")
        }
        let id = requiredText(top, "id", "the format's id, like kraken-trades")
        if let id, !FormatSpec.isValidID(id) {
            fail(top.value("id")?.value, "id", "'\(id)' is not an id: lower-case letters, digits and '-', like kraken-trades")
        }
        let description = requiredText(top, "description", "one line saying what the format is")
        let source = top.value("source").flatMap { self.source($0.value) }
        if top.value("source") == nil { fail(root, "source", "missing; expected the source, like {type: csv, delimiter: ';'}") }
        let values = top.value("values").flatMap { self.values($0.value) } ?? ValueRules(decimal: UInt8(ascii: "."), thousands: nil, timeZone: "UTC")
        var columns: [ColumnSpec] = []
        var names: Set<String> = []
        let parameters = top.value("parameters").map { self.parameters($0.value) } ?? []
        self.parameterNames = Set(parameters.map(\.name))
        if let (_, node) = top.value("columns") {
            (columns, names) = self.columnsAndNames(node)
        } else {
            fail(root, "columns", "missing; expected the list of columns the format reads")
        }
        if let zoneColumn = values.zoneColumn, !names.contains(zoneColumn) {
            fail(top.value("values")?.value, "values.zone-column", "'\(zoneColumn)' is not one of the spec's columns")
        }
        let detect = top.value("detect").flatMap { self.detect($0.value, names) }
        let allChecks: (text: [CrossCheck], numbers: [NumberCheck]) = top.value("checks").map { self.checks($0.value, names) } ?? ([], [])
        let checks = allChecks.text
        let skip = top.value("skip").map { self.skipRules($0.value, names) } ?? []
        let rows = top.value("rows").flatMap { self.rowKinds($0.value, names) }
        if top.value("rows") == nil { fail(root, "rows", "missing; expected which rows are what, like {kind: trade}") }
        let group = top.value("group").flatMap { self.groupRule($0.value, names) }
        // What rows.transaction and a group give, the mappings do not.
        var typeGiven = false
        var separateLegs = false
        if case .by(_, _, _, _, let legs)? = rows { separateLegs = !legs.isEmpty }
        if case .by(_, _, let transactions, _, _)? = rows, !transactions.isEmpty {
            typeGiven = transactions.allSatisfy { !$0.types.contains(.mapping) }
        }
        let trade = top.value("trade").flatMap {
            self.mapping(
                $0.value, "trade", OperationKind.trade.fields, names, given: group == nil || separateLegs ? [] : GroupRule.givenFields,
                givenBy: "the group")
        }
        let transaction = top.value("transaction").flatMap {
            self.mapping(
                $0.value, "transaction", OperationKind.transaction.fields, names, given: typeGiven ? ["type"] : [],
                givenBy: "rows.transaction")
        }
        let movement = top.value("movement").flatMap { self.mapping($0.value, "movement", OperationKind.movement.fields, names) }
        var assets: [String: String] = [:]
        if let (_, node) = top.value("assets") {
            if case .mapping(let mapping) = node {
                for (k, v) in mapping {
                    if let from = text(k, "assets", "an asset code"), let to = text(v, "assets.\(from)", "an asset code") { assets[from] = to }
                }
            } else {
                fail(node, "assets", "expected a mapping of asset codes to the codes they stand for, like {XBT: BTC}")
            }
        }
        // What the rows become must be said, and agree with the kinds.
        if let rows {
            switch rows {
            case .trades where trade == nil:
                fail(root, "trade", "missing: rows are trades, so the spec must say where each trade field comes from")
            case .transactions where transaction == nil:
                fail(root, "transaction", "missing: rows are transactions, so the spec must say where each transaction field comes from")
            case .movements where movement == nil:
                fail(root, "movement", "missing: rows are movements, so the spec must say where each movement field comes from")
            case .by(_, let t, let x, let m, let l):
                if !(t.isEmpty && l.isEmpty) && trade == nil { fail(root, "trade", "missing: some rows are trades") }
                if !l.isEmpty && group == nil {
                    fail(root, "group", "missing: rows.legs names rows that make trades together, so the spec must say how (group: key, asset, amount)")
                }
                if !x.isEmpty && transaction == nil { fail(root, "transaction", "missing: some rows are transactions") }
                if !m.isEmpty && movement == nil { fail(root, "movement", "missing: some rows are movements") }
            default:
                break
            }
        }
        let balance = top.value("balance").flatMap { self.balanceRule($0.value, columns) }
        guard let id, let description, let source, let rows else { return nil }
        var spec = FormatSpec(
            id: id, description: description, source: source, values: values, detect: detect, columns: columns,
            checks: checks, skip: skip, rows: rows, trade: trade, transaction: transaction, movement: movement, group: group,
            assets: assets, file: file)
        spec.balance = balance
        spec.rowKindAlso = rowKindAlso
        spec.parameters = parameters
        spec.numberChecks = allChecks.numbers
        if let (_, n) = top.value("wrapped"),
            let e = entries(
                n, "wrapped", allowed: ["column", "when-empty"], what: "the column a file wraps onto a line of its own, and the column empty on such a line"),
            let column = requiredText(e, "column", "the column whose value the file wraps"),
            let marker = requiredText(e, "when-empty", "a column always filled on a row, empty on a wrapped line")
        {
            for (key, name) in [("column", column), ("when-empty", marker)] where !names.contains(name) {
                fail(e.value(key)?.value, "wrapped." + key, "'\(name)' is not one of the spec's columns")
            }
            spec.wrapped = WrapRule(column: column, marker: marker, location: location(n))
        }
        if let (_, n) = top.value("layouts") {
            if case .sequence(let items) = n {
                for (k, item) in items.enumerated() {
                    let path = "layouts[\(k)]"
                    guard let e = entries(item, path, allowed: ["about", "when", "header"], what: "another column order: about, when, header"),
                        let about = requiredText(e, "about", "one line saying what the layout is"),
                        let (_, w) = e.value("when"),
                        let when = entries(w, path + ".when", allowed: ["position", "matches"], what: "the cell that tells the layout's rows"),
                        let (_, p) = when.value("position"), let position = integer(p, path + ".when.position", 1...16384, "a column number"),
                        let matches = requiredText(when, "matches", "the pattern that cell matches"),
                        let (_, h) = e.value("header"), let header = texts(h, path + ".header", "the layout's header texts, in its order")
                    else { continue }
                    if checkPatterns, let problem = SpecPattern.problem(matches) {
                        fail(when.value("matches")?.value, path + ".when.matches", "'\(matches)' is not a regular expression a spec may use: \(problem)")
                        continue
                    }
                    spec.layouts.append(LayoutRule(about: about, position: position, matches: matches, header: header, location: location(item)))
                }
            } else {
                fail(n, "layouts", "expected a list of layouts, each {about, when: {position, matches}, header: [texts]}")
            }
        }
        return spec
    }

    /// `parameters: {name: {default: value, about: text}}`.
    func parameters(_ node: Node) -> [SpecParameter] {
        guard case .mapping(let mapping) = node else {
            fail(node, "parameters", "expected a mapping of names to {default, about}, like {account-currency: {default: EUR, about: the account's currency}}")
            return []
        }
        var out: [SpecParameter] = []
        for (k, v) in mapping {
            guard let name = text(k, "parameters", "a parameter's name") else { continue }
            guard FormatSpec.isValidID(name) else {
                fail(k, "parameters", "'\(name)' is not a parameter name: lower-case letters, digits and '-'")
                continue
            }
            guard let e = entries(v, "parameters." + name, allowed: ["default", "about"], what: "a parameter: its default and what it is"),
                let value = requiredText(e, "default", "the value taken when the user gives none"),
                let about = requiredText(e, "about", "one line saying what it is")
            else { continue }
            out.append(SpecParameter(name: name, defaultValue: value, about: about))
        }
        return out
    }

    /// `balance: {amount: column, asset: column or {const: code}}`.
    func balanceRule(_ node: Node, _ columns: [ColumnSpec]) -> BalanceRule? {
        guard let e = entries(node, "balance", allowed: ["amount", "asset"], what: "the balance the rows print: its amount column and its asset"),
            let amount = requiredText(e, "amount", "the decimal column holding the balance after the row")
        else { return nil }
        if let column = columns.first(where: { $0.name == amount }) {
            if case .decimal = column.type {} else { fail(e.value("amount")?.value, "balance.amount", "'\(amount)' is not a decimal column") }
            if column.kinds != nil {
                fail(e.value("amount")?.value, "balance.amount", "'\(amount)' is read on some kinds of row only (for:): a balance is read on every row")
            }
        } else {
            fail(e.value("amount")?.value, "balance.amount", "'\(amount)' is not one of the spec's columns")
        }
        guard let (_, a) = e.value("asset") else {
            fail(node, "balance.asset", "missing; expected the column of the balance's currency, or {const: USD}")
            return nil
        }
        let asset: FieldSource
        if case .scalar(let s) = a {
            guard let column = columns.first(where: { $0.name == s.string }) else {
                fail(a, "balance.asset", "'\(s.string)' is not one of the spec's columns")
                return nil
            }
            if case .asset = column.type {} else { fail(a, "balance.asset", "'\(s.string)' is not an asset column") }
            if column.kinds != nil { fail(a, "balance.asset", "'\(s.string)' is read on some kinds of row only (for:): a balance is read on every row") }
            asset = .column(s.string)
        } else if let c = entries(a, "balance.asset", allowed: ["const"], what: "an asset column, or {const: USD}"),
            let code = requiredText(c, "const", "an asset code")
        {
            asset = .constant(code)
        } else {
            return nil
        }
        return BalanceRule(amount: amount, asset: asset, location: location(node))
    }

    // MARK: - Source and values

    func source(_ node: Node) -> Source? {
        guard case .mapping = node else {
            fail(node, "source", "expected a mapping, like {type: csv, delimiter: ';'}")
            return nil
        }
        let type = entries(node, "source", allowed: ["type", "delimiter", "quote", "encoding", "skip-lines", "header", "fields", "sheet"], what: "the source")
        guard let e = type, let kind = requiredText(e, "type", "csv or xlsx") else { return nil }
        switch kind {
        case "csv":
            for key in ["sheet"] where e.value(key) != nil { fail(e.value(key)!.keyNode, "source.\(key)", "a CSV source has no \(key)") }
            var delimiter = CSVSource.Delimiter.byte(UInt8(ascii: ","))
            if let (_, n) = e.value("delimiter") {
                if case .scalar(let s) = n, s.string == "auto" {
                    delimiter = .auto
                } else if let b = byte(n, "source.delimiter", names: ["tab": 0x09]) {
                    delimiter = .byte(b)
                }
            }
            var quote: UInt8? = UInt8(ascii: "\"")
            if let (_, n) = e.value("quote") {
                if case .scalar(let s) = n, s.string == "none" { quote = nil } else { quote = byte(n, "source.quote") }
            }
            var encoding = TextEncoding.utf8
            if let (_, n) = e.value("encoding"), let t = text(n, "source.encoding", "an encoding") {
                if let enc = TextEncoding(rawValue: t.lowercased()) {
                    encoding = enc
                } else {
                    fail(n, "source.encoding", "'\(t)' is not an encoding tradeport reads (\(TextEncoding.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
            }
            let skipLines = e.value("skip-lines").flatMap { integer($0.value, "source.skip-lines", 0...1_000_000, "a number of lines (0 or more)") } ?? 0
            let header = e.value("header").flatMap { headerRule($0.value) } ?? .none
            let fields = e.value("fields").flatMap { integer($0.value, "source.fields", 1...16_384, "a number of fields (1 or more)") }
            return .csv(CSVSource(delimiter: delimiter, quote: quote, encoding: encoding, skipLines: skipLines, header: header, fields: fields))
        case "xlsx":
            for key in ["delimiter", "quote", "encoding", "skip-lines", "fields"] where e.value(key) != nil {
                fail(e.value(key)!.keyNode, "source.\(key)", "an XLSX source has no \(key)")
            }
            var sheet = XLSXSource.Sheet.index(1)
            if let (_, n) = e.value("sheet"), let t = text(n, "source.sheet", "a sheet's name or 1-based number") {
                if let i = Int(t) {
                    if i >= 1 { sheet = .index(i) } else { fail(n, "source.sheet", "'\(t)' is not a sheet number (1 or more)") }
                } else {
                    sheet = .name(t)
                }
            }
            let header = e.value("header").flatMap { headerRule($0.value) } ?? .row(1)
            return .xlsx(XLSXSource(sheet: sheet, header: header))
        default:
            fail(e.value("type")?.value, "source.type", "'\(kind)' is not a source type (csv, xlsx)")
            return nil
        }
    }

    func headerRule(_ node: Node) -> HeaderRule? {
        if case .scalar(let s) = node {
            if s.string == "none" { return HeaderRule.none }
            if let row = Int(s.string), row >= 1 { return .row(row) }
            fail(node, "source.header", "'\(s.string)' is not none, a row number, or {find: [texts], within: rows}")
            return nil
        }
        guard let e = entries(node, "source.header", allowed: ["find", "within"], what: "how to find the header row") else { return nil }
        guard let (_, findNode) = e.value("find"), let texts = texts(findNode, "source.header.find", "header texts") else {
            if e.value("find") == nil { fail(node, "source.header.find", "missing; expected the texts the header row holds") }
            return nil
        }
        let within = e.value("within").flatMap { integer($0.value, "source.header.within", 1...10_000, "a number of rows") } ?? 50
        return .find(texts, within: within)
    }

    func values(_ node: Node) -> ValueRules? {
        guard
            let e = entries(
                node, "values",
                allowed: ["decimal", "thousands", "timezone", "zone-column", "symbols", "parentheses", "exponent", "empty", "formula-quote", "escapes"],
                what: "how values are written")
        else { return nil }
        var rules = ValueRules(decimal: UInt8(ascii: "."), thousands: nil, timeZone: "UTC")
        if let (_, n) = e.value("decimal") {
            if case .scalar(let s) = n, s.string == "either" {
                rules.notation.eitherDecimal = true
            } else if let b = byte(n, "values.decimal") {
                if b == UInt8(ascii: ".") || b == UInt8(ascii: ",") {
                    rules.decimal = b
                } else {
                    fail(n, "values.decimal", "the decimal separator must be '.', ',' or either")
                }
            }
        }
        if let (_, n) = e.value("symbols"), let symbols = texts(n, "values.symbols", "currency symbols, like [$, €]") {
            for symbol in symbols where symbol.isEmpty || symbol.contains(where: { $0.isNumber || $0 == "-" || $0 == "." || $0 == "," }) {
                fail(n, "values.symbols", "'\(symbol)' is not a currency symbol (no digits, signs or separators)")
            }
            rules.notation.symbols = symbols
        }
        if let (_, n) = e.value("parentheses"), let b = boolean(n, "values.parentheses") { rules.notation.parentheses = b }
        if let (_, n) = e.value("exponent"), let b = boolean(n, "values.exponent") { rules.notation.exponent = b }
        if let (_, n) = e.value("empty"), let texts = texts(n, "values.empty", "texts that stand for an empty cell, like ['-']") { rules.empty = texts }
        if let (_, n) = e.value("thousands") {
            if case .scalar(let s) = n, s.string == "none" {
                rules.thousands = nil
            } else if case .scalar(let s) = n, s.string == "space" || s.string == " " {
                rules.thousands = .space
            } else if let b = byte(n, "values.thousands", names: [:]) {
                if b == rules.decimal && !rules.notation.eitherDecimal {
                    fail(n, "values.thousands", "the thousands separator cannot be the decimal separator")
                }
                rules.thousands = .byte(b)
            }
        }
        if let (_, n) = e.value("formula-quote"), let b = byte(n, "values.formula-quote", names: [:]) {
            if b == UInt8(ascii: "'") {
                rules.formulaQuote = b
            } else {
                fail(n, "values.formula-quote", "the quote a spreadsheet takes before a formula's text is ', the only one it may be")
            }
        }
        if let escapes = optionalText(e, "escapes", "ooxml") {
            if escapes == "ooxml" {
                rules.ooxmlEscapes = true
            } else {
                fail(e.value("escapes")?.value, "values.escapes", "'\(escapes)' is not an escape convention; the one known is ooxml (_xHHHH_)")
            }
        }
        if let zone = optionalText(e, "timezone", "an IANA zone name like Europe/Moscow") {
            if zone.isEmpty || zone.contains(" ") {
                fail(e.value("timezone")?.value, "values.timezone", "'\(zone)' is not a zone name like Europe/Moscow or UTC")
            }
            rules.timeZone = zone
        }
        rules.zoneColumn = optionalText(e, "zone-column", "the name of a column naming each row's time zone")
        return rules
    }

    func detect(_ node: Node, _ names: Set<String>) -> DetectRule? {
        guard let e = entries(node, "detect", allowed: ["fit", "header"], what: "how to recognize the format") else { return nil }
        var rule = DetectRule(fit: [], header: [])
        if let (_, n) = e.value("fit"), let columns = texts(n, "detect.fit", "column names") {
            for c in columns where !names.contains(c) { fail(n, "detect.fit", "'\(c)' is not one of the spec's columns") }
            rule.fit = columns
        }
        // Each entry a text, or a list of alternatives (`[Datum, Date, Fecha]`: any one of them).
        if let (_, n) = e.value("header") {
            if case .sequence(let items) = n {
                var header: [[String]] = []
                for (i, item) in items.enumerated() {
                    if let alternatives = texts(item, "detect.header[\(i)]", "a header text or a list of alternative texts") { header.append(alternatives) }
                }
                if items.isEmpty { fail(n, "detect.header", "an empty list; expected header texts") }
                rule.header = header
            } else if let text = text(n, "detect.header", "header texts") {
                rule.header = [[text]]
            }
        }
        if rule.fit.isEmpty && rule.header.isEmpty { fail(node, "detect", "say how to recognize the format: fit (columns) or header (texts)") }
        return rule
    }
}
