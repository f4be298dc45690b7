import TradeportSpec

/// Writes a `SpecDraft` as a spec's YAML: the source, the notation, a column per column of the
/// export, the row kinds by a type column's values, and the mappings of the canonical fields the
/// headers name. A guess has `# guess` beside it; an open question is a `TODO` value.
struct SpecDraftWriter {
    var draft: SpecDraft
    private var lines: [String] = []
    private var questions: [String] = []

    init(draft: SpecDraft) { self.draft = draft }

    /// A YAML scalar: plain where YAML reads it back as the same text, else double-quoted.
    static func scalar(_ s: String) -> String {
        let plain =
            !s.isEmpty && s.first!.isLetter && !s.hasSuffix(" ") && !s.hasSuffix(":")
            && !s.contains(where: { ":#{}[],&*!|>'\"%@`\\".contains($0) || $0.isNewline })
            && !["true", "false", "yes", "no", "null", "on", "off", "y", "n"].contains(s.lowercased())
        if plain { return s }
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }

    static func todo(_ question: String) -> String { scalar("TODO: " + question) }

    private func column(_ role: HeaderRole, types: Set<String>? = nil) -> SpecDraft.Column? {
        draft.columns.first { $0.role == role && (types == nil || types!.contains($0.type)) }
    }

    private func hasNegatives(_ c: SpecDraft.Column) -> Bool { c.values.contains { $0.text.hasPrefix("-") || $0.text.hasPrefix("(") } }

    /// A number field from column `c`: its absolute value where the file signs it.
    private func magnitude(_ c: SpecDraft.Column) -> String { hasNegatives(c) ? "{abs: \(c.name)}" : c.name }

    mutating func yaml(file: String) -> String {
        var d = draft
        // What a row is: a type column's values, or a side column's.
        let typeColumn = d.columns.first { ($0.role == .type || $0.role == .side) && $0.type == "text" && !$0.values.isEmpty && $0.values.count <= 40 }
        var meanings: [(value: String, count: Int, meaning: String?)] = []
        // Values with numbers in them (`Koop 2 @ 318,6 USD`): the kind is the words before the first
        // number, read by a column of its own.
        let byPrefix = typeColumn.map { $0.values.contains { v in v.text.contains { $0.isNumber } } } ?? false
        if let t = typeColumn {
            var counts: [String: Int] = [:]
            var order: [String] = []
            for v in t.values {
                let key = byPrefix ? Self.kindPrefix(v.text) : v.text
                if counts[key] == nil { order.append(key) }
                counts[key, default: 0] += v.count
            }
            meanings = order.map { ($0, counts[$0]!, TypeWords.meaning($0)) }
        }
        let kindName = byPrefix ? (draft.columns.contains { $0.name == "kind" } ? "rowKind" : "kind") : typeColumn?.name
        let tradeValues = meanings.filter { $0.meaning == "buy" || $0.meaning == "sell" }
        let transactionValues = meanings.filter { $0.meaning != nil && $0.meaning != "buy" && $0.meaning != "sell" }
        let unknownValues = meanings.filter { $0.meaning == nil }
        let trades = typeColumn == nil || !tradeValues.isEmpty
        let transactions = typeColumn != nil && (!transactionValues.isEmpty || !unknownValues.isEmpty)
        let pair = d.columns.first { $0.role == .pair && $0.values.allSatisfy { v in v.text.contains { "/-_:".contains($0) } } }
        if let p = pair, let i = d.columns.firstIndex(of: p) { d.columns[i].type = "instrument" }

        var out: [String] = []
        out.append("# Drafted by 'tradeport formats new' from \(file) (\(d.rows) rows read).")
        out.append("# Lines marked '# guess' are guesses: check each against the export. A 'TODO' is a question the draft")
        out.append("# could not answer: 'tradeport formats check' refuses the spec until each is answered.")
        out.append("tradeport-format: 1")
        out.append("id: \(d.id)")
        out.append(
            "description: \(Self.scalar("\(d.id) export (\(d.kind == .xlsx ? "XLSX" : "CSV"), drafted from \(file))"))  # guess: say what the export is and where it is downloaded"
        )
        // Source.
        let headerRule: String
        let headerCells = d.columns.map(\.header).filter { !$0.isEmpty }
        if d.headerLine == 0 {
            headerRule = "none"
        } else if d.headerLine == 1 {
            headerRule = "1"
        } else {
            headerRule = "{find: [\(headerCells.prefix(3).map(Self.scalar).joined(separator: ", "))], within: \(d.headerLine + 10)}"
        }
        switch d.kind {
        case .csv:
            let delimiter = d.delimiter == "\t" ? "tab" : Self.scalar(d.delimiter) == d.delimiter ? "\"\(d.delimiter)\"" : Self.scalar(d.delimiter)
            out.append("source: {type: csv, delimiter: \(delimiter), quote: '\"', encoding: \(d.encoding.rawValue), header: \(headerRule)}")
        case .xlsx:
            out.append("source: {type: xlsx, sheet: \(Self.scalar(d.sheet ?? "1")), header: \(headerRule)}")
        }
        // Values.
        var values = ["decimal: \(Self.scalar(d.decimal) == d.decimal && d.decimal != "." && d.decimal != "," ? d.decimal : "\"\(d.decimal)\"")"]
        if d.decimal != "either" {
            values.append("thousands: \(d.thousands == "none" || d.thousands == "space" ? d.thousands : "\"\(d.thousands)\"")")
        }
        if !d.symbols.isEmpty { values.append("symbols: [\(d.symbols.map(Self.scalar).joined(separator: ", "))]") }
        if d.parentheses { values.append("parentheses: true") }
        if d.exponent { values.append("exponent: true") }
        if !d.emptyMarkers.isEmpty { values.append("empty: [\(d.emptyMarkers.map { "'\($0)'" }.joined(separator: ", "))]") }
        let zoned = d.columns.contains {
            ($0.format ?? "").hasSuffix("Z") || ($0.format ?? "").hasSuffix("XXX") || ($0.format ?? "").contains("UTC")
                || $0.header.uppercased().contains("UTC")
        }
        if zoned {
            values.append("timezone: UTC")
        } else if d.columns.contains(where: { $0.type == "datetime" || $0.type == "date" }) {
            values.append("timezone: \(Self.todo("the zone of the export's times, an IANA name like Europe/Berlin, or UTC"))")
            questions.append("values.timezone: the times carry no zone; name the zone the broker writes them in")
        }
        out.append("values: {\(values.joined(separator: ", "))}")
        // Detect: the header's first named cells.
        if !headerCells.isEmpty {
            out.append("detect: {header: [\(headerCells.prefix(8).map(Self.scalar).joined(separator: ", "))]}")
        }
        // Columns.
        out.append("columns:")
        for c in d.columns {
            var parts = ["name: \(c.name)"]
            parts.append(c.header.isEmpty ? "position: \(c.position)" : "header: \(Self.scalar(c.header))")
            var comment: String?
            switch c.type {
            case "instrument": parts.append("type: instrument")
            case "decimal":
                parts.append("type: decimal")
                if hasNegatives(c) { parts.append("check: signed") }
            case "date", "datetime", "time":
                parts.append("type: \(c.type)")
                parts.append("format: \(Self.scalar(c.format ?? ""))")
                if let m = c.match { parts.append("match: '\(m)'") }
                if c.dateCells {
                    comment = "guess: the sheet's date cells are read as dates; the format is for any written as text"
                } else if let e = c.example {
                    parts.append("example: \(Self.scalar(e))")
                }
            case "text" where c.role == .type && typeColumn == nil:
                parts.append("type: text")
                comment = "\(c.values.count) different values: too many to be a row's kind"
            default: parts.append("type: \(c.type)")
            }
            if c.optional { parts.append("required: false") }
            if c.values.isEmpty { comment = "always empty in the sample" }
            if let role = c.role, comment == nil || c.dateCells { comment = "guess: the \(role.rawValue == "clock" ? "time of day" : role.rawValue)" }
            out.append("  - {\(parts.joined(separator: ", "))}" + (comment.map { "  # \($0)" } ?? ""))
        }
        if let t = typeColumn, byPrefix, let kindName {
            out.append(
                "  - {name: \(kindName), from: \(t.name), match: '\(Self.kindPattern)', type: text}  # guess: a row's kind is the words before its first number"
            )
        }
        // A side from the type column, for trades.
        if let t = typeColumn, kindName != nil, !tradeValues.isEmpty {
            let map = tradeValues.map { "\(Self.scalar($0.value)): \($0.meaning!)" }.joined(separator: ", ")
            let restricted = transactions ? ", for: [trade]" : ""
            let match =
                byPrefix
                ? "^(" + tradeValues.map { Self.regexEscaped($0.value) }.sorted { $0.count > $1.count }.joined(separator: "|") + ")\\b"
                : "^(.*)$"
            out.append(
                "  - {name: tradeSide, from: \(t.name), match: '\(match.replacingOccurrences(of: "'", with: "''"))', map: {\(map)}\(restricted)}  # guess")
        }
        // Trailer lines.
        if !d.trailerLines.isEmpty, let first = d.columns.first {
            out.append("# Lines \(d.trailerLines.map(String.init).joined(separator: ", ")) after the rows are a trailer (a total or a note).")
            out.append("skip:")
            out.append(
                "  - {column: \(first.name), equals: [\(d.trailerTexts.map { first.match == nil ? $0 : String($0.prefix { $0 != " " }) }.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", "))], reason: \"the export's total line\"}  # guess"
            )
        }
        // Rows.
        if let t = typeColumn {
            out.append("rows:")
            out.append("  by: \(kindName ?? t.name)")
            if !tradeValues.isEmpty {
                out.append("  trade: [\(tradeValues.map { Self.scalar($0.value) }.joined(separator: ", "))]  # guess")
            }
            if transactions {
                out.append("  transaction:")
                let signed = column(.amount, types: ["decimal"]).map(hasNegatives) == true ? column(.amount, types: ["decimal"]) : nil
                for v in transactionValues {
                    let type: String
                    if v.meaning == "transfer" {
                        guard let signed else {
                            out.append(
                                "    \(Self.scalar(v.value)): \(Self.todo("deposit or withdrawal (money in or out)"))  # \(v.count) row\(v.count == 1 ? "" : "s")"
                            )
                            questions.append("rows: whether a row whose \(typeColumn!.header) is '\(v.value)' is a deposit or a withdrawal")
                            continue
                        }
                        type = "{sign-of: \(signed.name), positive: deposit, negative: withdrawal}"
                    } else {
                        type = v.meaning!
                    }
                    out.append("    \(Self.scalar(v.value)): \(type)  # guess; \(v.count) row\(v.count == 1 ? "" : "s")")
                }
                for v in unknownValues {
                    out.append(
                        "    \(Self.scalar(v.value)): \(Self.todo("a transaction type (deposit, withdrawal, dividend, tax, fee, …), or move the value to trade:, movement: or skip:"))  # \(v.count) row\(v.count == 1 ? "" : "s")"
                    )
                    questions.append("rows: what a row whose \(t.header) is '\(v.value)' is (\(v.count) row\(v.count == 1 ? "" : "s"))")
                }
            }
        } else {
            out.append("rows: {kind: trade}  # guess: no column says what a row is")
        }
        // The mappings.
        let time = timeMapping(d)
        if trades {
            out.append("trade:")
            if let id = column(.id) { out.append("  externalId: \(id.name)") }
            if let o = column(.orderId) { out.append("  orderId: \(o.name)") }
            out.append("  time: \(time)")
            if typeColumn != nil && !tradeValues.isEmpty {
                out.append("  side: tradeSide")
            } else if let s = column(.side) {
                out.append("  side: \(s.name)  # " + "guess")
            } else {
                out.append("  side: \(Self.todo("a column of buy and sell (with map:), or {sign-of: quantity, positive: buy, negative: sell}"))")
                questions.append("trade.side: which column says buy or sell")
            }
            if let p = pair {
                out.append("  base: {base-of: \(p.name)}")
                out.append("  quote: {quote-of: \(p.name)}")
            } else {
                let base = column(.symbol) ?? column(.isin)
                out.append("  base: " + (base.map(\.name) ?? Self.todo("the column naming what is bought or sold (a ticker, an ISIN)")))
                if base == nil { questions.append("trade.base: which column names the security") }
                let quote = column(.currency)?.name ?? symbolCurrency.map { "{const: \($0)}" }
                out.append(
                    "  quote: " + (quote ?? Self.todo("the currency of the price: a column, or {const: USD}"))
                        + (quote != nil && column(.currency) == nil ? "  # guess: the numbers' symbol" : ""))
                if quote == nil { questions.append("trade.quote: the currency the price and amount are in") }
            }
            if let q = column(.quantity, types: ["decimal"]) {
                out.append("  quantity: \(magnitude(q))")
            } else {
                out.append("  quantity: \(Self.todo("the column of the quantity"))")
                questions.append("trade.quantity: which column holds the quantity")
            }
            if let p = column(.price, types: ["decimal"]) { out.append("  price: \(magnitude(p))") }
            if let a = column(.amount, types: ["decimal"]) { out.append("  amount: \(magnitude(a))") }
            if column(.price, types: ["decimal"]) == nil {
                out.append("  price: \(Self.todo("the column of the price, or {div: [amount, quantity], round: 8}"))")
                questions.append("trade.price: which column holds the price (or how it follows from the amount)")
            }
            if let f = column(.fee, types: ["decimal"]) {
                let currency =
                    column(.feeCurrency).map(\.name) ?? pair.map { "{quote-of: \($0.name)}" } ?? column(.currency)?.name
                    ?? symbolCurrency.map { "{const: \($0)}" }
                out.append("  fees: [{amount: \(magnitude(f)), currency: \(currency ?? Self.todo("the fee's currency")), kind: broker}]")
                if currency == nil { questions.append("trade.fees: the fee's currency") }
            }
            if let isin = column(.isin), column(.symbol) != nil { out.append("  isin: \(isin.name)") }
            if let n = column(.name) { out.append("  name: \(n.name)") }
        }
        if transactions {
            out.append("transaction:")
            if let id = column(.id) { out.append("  externalId: \(id.name)") }
            out.append("  time: \(time)")
            if let c = column(.currency)?.name ?? symbolCurrency.map({ "{const: \($0)}" }) {
                out.append("  asset: \(c)" + (column(.currency) == nil ? "  # guess: the numbers' symbol" : ""))
            } else {
                out.append("  asset: \(Self.todo("the currency of the amount: a column, or {const: EUR}"))")
                questions.append("transaction.asset: the currency of the amounts")
            }
            if let a = column(.amount, types: ["decimal"]) {
                out.append("  amount: \(magnitude(a))")
            } else {
                out.append("  amount: \(Self.todo("the column of the amount"))")
                questions.append("transaction.amount: which column holds the money")
            }
            if let s = column(.symbol) ?? column(.isin) { out.append("  security: \(s.name)") }
            if let n = column(.note) ?? column(.name) { out.append("  note: \(n.name)") }
        }
        if time.hasPrefix("\"TODO") { questions.append("time: which column holds the date (and time)") }
        draft.questions = questions
        return out.joined(separator: "\n") + "\n"
    }

    static func regexEscaped(_ text: String) -> String {
        var out = ""
        for ch in text {
            if "\\^$.|?*+()[]{}".contains(ch) { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    /// The words of a text before its first digit, `:` or `@`.
    static let kindPattern = "^([^0-9:@]*[^0-9:@ ])"
    static func kindPrefix(_ text: String) -> String {
        String(text.prefix { !$0.isNumber && $0 != ":" && $0 != "@" }).trimmingCharacters(in: .whitespaces)
    }

    /// The currency the numbers' one symbol names (`$`: USD), if they have one.
    private var symbolCurrency: String? {
        guard draft.symbols.count == 1 else { return nil }
        return ["$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₽": "RUB", "₹": "INR", "CHF": "CHF", "zł": "PLN"][draft.symbols[0]]
    }

    /// The time of a row: a datetime column, or a date and a time of day.
    private func timeMapping(_ d: SpecDraft) -> String {
        if let t = d.columns.first(where: { ($0.role == .time || $0.role == .date) && $0.type == "datetime" }) { return t.name }
        let date = d.columns.first { $0.role == .date && $0.type == "date" } ?? d.columns.first { $0.type == "date" }
        let clock = d.columns.first { $0.type == "time" }
        if let date, let clock { return "{date: \(date.name), time: \(clock.name)}" }
        if let date { return date.name }
        if let any = d.columns.first(where: { $0.type == "datetime" }) { return any.name }
        return Self.todo("the column of the date and time")
    }
}
