import TradeportCore
import TradeportSpec
import TradeportXLSX

/// A spec compiled once for reading: columns by index, patterns and maps as bytes, check
/// templates split, and every mapping's sources resolved to column indexes, so reading a row does
/// no name lookups and builds no strings it does not output.
final class SpecPlan: Sendable {
    /// Where a canonical field's value comes from, by column index.
    enum Source: Sendable {
        case column(Int)
        case constant(String)
        case absolute(Int)
        /// The texts live in a box: two strings inline would make every `Source` copy go through
        /// the runtime's generic value witnesses (measured: 1M DSX rows 10% slower).
        case bySign(Int, SignTexts)
        case part(Int, Int)
        /// Column indexes, and constant texts as `JoinPiece.text`.
        case join([JoinPiece], String)
        case dateAndTime(Int, Int)
        case byType([(String, Source)])
        /// Boxed, like the sign texts: rare, and large inline.
        case arithmetic(Arithmetic)
        case first([Source])
        /// Boxed, like the arithmetic.
        case conditional(Conditional)
        /// A parameter's value (given, or its default), by name.
        case parameter(String)
        /// A value a group of rows gives (`GroupPlan.Field`).
        case grouped(Int)
    }

    /// A part of a join: a column by index, or a constant text.
    enum JoinPiece: Sendable {
        case column(Int)
        case text(String)
    }

    /// `{if: …, then: …, else: …}` compiled: per column, the texts one of which it must hold.
    final class Conditional: Sendable {
        let tests: [(column: Int, values: [String])]
        let near: (a: Source, b: Source, within: ExactDecimal)?
        let then: Source
        let otherwise: Source?
        init(_ tests: [(column: Int, values: [String])], near: (a: Source, b: Source, within: ExactDecimal)?, then: Source, otherwise: Source?) {
            self.tests = tests
            self.near = near
            self.then = then
            self.otherwise = otherwise
        }
    }

    /// `{add|sub|mul|div|neg: …, round: n}` compiled.
    final class Arithmetic: Sendable {
        let operation: ArithmeticOperation
        let operands: [Source]
        let round: Int?
        let text: String
        init(_ operation: ArithmeticOperation, _ operands: [Source], round: Int?, text: String) {
            self.operation = operation
            self.operands = operands
            self.round = round
            self.text = text
        }
    }

    /// A type of `rows.transaction` compiled.
    enum TypeChoice: Sendable {
        case mapping
        case fixed(String)
        case bySign(Int, SignTexts)
        /// The value of a column, which must be a transaction type.
        case column(Int)
    }

    /// `group:` compiled: column indexes, fee values as bytes, quote ranks.
    struct GroupPlan: Sendable {
        /// What a group gives a trade, by `Source.grouped`'s number.
        enum Field: Int, CaseIterable {
            case side, base, quote, quantity, price, amount
        }
        let key: [Int]
        let asset: Int
        let amount: Int
        let feeColumn: Int?
        let feeValues: [[UInt8]]
        let legFee: Int?
        let quoteRank: [String: Int]
        let priceScale: Int
    }

    /// What `{sign-of: column, positive: …, negative: …}` gives for each sign.
    final class SignTexts: Sendable {
        let positive, negative: String
        init(positive: String, negative: String) {
            self.positive = positive
            self.negative = negative
        }
    }

    enum Segment: Sendable {
        case literal([UInt8])
        case column(Int)
    }

    /// A class, so that the per-row loop over checks retains one reference, not each field.
    final class Check: Sendable {
        let column: Int
        let segments: [Segment]
        let lowercase: Bool
        let message: String
        let name: String

        init(column: Int, segments: [Segment], lowercase: Bool, message: String, name: String) {
            self.column = column
            self.segments = segments
            self.lowercase = lowercase
            self.message = message
            self.name = name
        }
    }

    struct Skip: Sendable {
        let column: Int
        let equals: [[UInt8]]
        let reason: String
        /// Further conditions: a column and its values.
        let and: [(column: Int, equals: [[UInt8]])]
    }

    /// What a column holds, without the strings of its spec: what the row loop switches on.
    enum Kind: Sendable {
        case text, id, asset
        case decimal(DecimalCheck)
        case dateTime, date, time
        case map(ignoreCase: Bool)
        case instrument
    }

    /// Whether an empty value is allowed: always, never, or when a decimal column is zero.
    enum Empty: Sendable {
        case allowed, refused
        case allowedWhenZero(Int)
    }

    /// Where each field of one kind's table comes from, by the table's order: what building an
    /// operation reads (the spec vocabulary and the model are one table, so nothing is named here).
    final class KindMapping: Sendable {
        /// What building a field does, from its definition, without its strings (read per row).
        enum Step: Sendable {
            case location, id, time, text, asset
            case decimal(DecimalSign)
            case date, choice, tradeFees, cashFee
        }
        /// Per field of `Record.layout`: its step, whether a reader must give it, and its source
        /// (nil: not mapped).
        let steps: [Step]
        let mustGive: [Bool]
        let sources: [Source?]
        /// Per field: whether it is a plain field no source fills and no reader must give, whose
        /// value is then its default or null without reading anything.
        let idle: [Bool]
        /// Per field: its default when the source says nothing, and its words when it is a choice.
        let defaults: [FieldValue?]
        let words: [[String]]
        /// Per field: its name (for messages).
        let names: [String]
        /// The field a row kind's transaction type fills (`rows: {by: …}`), when the kind has one.
        let typeField: Int?
        /// The fees of a trade: each an amount, a currency and a kind.
        let fees: [(amount: Source, currency: Source, kind: FeeKind)]
        /// The amount and currency of a transaction's fee (`fee: {amount, currency}`).
        let feeAmount, feeCurrency: Source?
        let portfolio: Source?

        init<Record: CanonicalRecord>(_ m: OperationMapping, _ resolve: (FieldSource?) -> Source?, of _: Record.Type) {
            let layout = Record.layout
            names = layout.fields.map(\.rawValue)
            typeField = Record.kind == .transaction ? names.firstIndex(of: TransactionField.type.rawValue) : nil
            var sources: [Source?] = []
            var feeAmount: Source?
            var feeCurrency: Source?
            for (field, definition) in zip(layout.fields, layout.definitions) {
                if definition.type == .cashFee {
                    feeAmount = resolve(m.source(of: field.rawValue + ".amount"))
                    feeCurrency = resolve(m.source(of: field.rawValue + ".currency"))
                }
                sources.append(resolve(m.source(of: field.rawValue)))
            }
            self.sources = sources
            steps = layout.definitions.map { d in
                switch d.type {
                case .location: return .location
                case .id: return .id
                case .time: return .time
                case .text: return .text
                case .asset: return .asset
                case .decimal(let sign): return .decimal(sign)
                case .date: return .date
                case .choice: return .choice
                case .tradeFees: return .tradeFees
                case .cashFee: return .cashFee
                }
            }
            mustGive = layout.definitions.map { $0.presence == .required && !$0.assigned }
            idle = zip(layout.definitions, sources).map { d, source in
                switch d.type {
                case .location, .tradeFees, .cashFee, .time: return false
                default: return source == nil && !(d.presence == .required && !d.assigned)
                }
            }
            defaults = layout.definitions.map { d in d.defaultValue.map { FieldValue.text($0) } }
            words = layout.definitions.map { d in if case .choice(let w) = d.type { w } else { [] } }
            self.feeAmount = feeAmount
            self.feeCurrency = feeCurrency
            portfolio = resolve(m.source(of: "portfolio"))
            fees = m.fees.compactMap { f in
                guard let a = resolve(f.amount), let c = resolve(f.currency) else { return nil }
                return (a, c, FeeKind(rawValue: f.kind) ?? .other)
            }
            grouped = false
        }

        /// A trade's mapping under a group: the group gives side, base, quote, quantity, price,
        /// amount and fees; the rest comes from the group's first row.
        init(grouping m: KindMapping) {
            var sources = m.sources
            for (i, name) in m.names.enumerated() {
                if let field = GroupPlan.Field.allCases.first(where: { "\($0)" == name }) { sources[i] = .grouped(field.rawValue) }
            }
            self.sources = sources
            steps = m.steps
            mustGive = m.mustGive
            idle = zip(m.idle, sources).map { idle, source in if case .grouped? = source { false } else { idle } }
            defaults = m.defaults
            words = m.words
            names = m.names
            typeField = m.typeField
            fees = []
            feeAmount = m.feeAmount
            feeCurrency = m.feeCurrency
            portfolio = m.portfolio
            grouped = true
        }

        /// Whether the group gives the trade's core fields and fees.
        let grouped: Bool

        /// The source of the field named `name`.
        func source(_ name: String) -> Source? {
            names.firstIndex(of: name).flatMap { sources[$0] }
        }
    }

    let spec: FormatSpec
    let columnIndex: [String: Int]
    let patterns: [CompiledPattern?]
    /// Per map column: source values as bytes (folded when ignoring case) and what they stand for.
    let maps: [[(from: [UInt8], to: String)]?]
    let mapLists: [String]
    let checks: [Check]
    let skips: [Skip]
    let statusColumn: Int?
    let trade: KindMapping?
    /// The trade mapping for a group's trades (the group gives their core fields).
    let groupTrade: KindMapping?
    let transaction: KindMapping?
    let movement: KindMapping?
    let style: NumberStyle
    let assetAliases: [String: AssetCode]
    let kinds: [Kind]
    let empties: [Empty]
    /// The order columns are read in: the spec's, except that a column another column's rule
    /// reads (the amount of `required: {unless-zero: …}`, the status a `transaction-amount` check
    /// reads) is read before it, wherever the spec lists it.
    let readOrder: [Int]
    /// `rows: {by: …}` compiled: the column, its trade values and its transaction values (with the
    /// type, or nil for "from the mapping") as bytes; nil for `rows: {kind: …}`.
    let rowKindColumn: Int?
    /// `rows.by`'s second column, when it names two: values `x|y` are tried before `x`.
    let rowKindAlsoColumn: Int?
    let tradeKinds: [[UInt8]]
    let transactionKinds: [(from: [UInt8], types: [TypeChoice])]
    let movementKinds: [[UInt8]]
    /// Per `transactionKinds` value: whether it is under `rows.movement` too (a row that gives a
    /// transaction and a movement: a redemption paying money and taking the units out).
    let alsoMovement: [Bool]
    /// For each `rows.trade` value, the `rows.transaction` entry listing it too: its trade rows
    /// give those transactions beside the trade (each type whose amount is not zero).
    let tradeTransactions: [Int?]
    /// The column naming each row's time zone (`values.zone-column`).
    let zoneColumn: Int?
    /// Checks between a row's numbers (`checks: [{near: …}]`): the two values, how far apart they
    /// may be, the kinds of rows checked (bits as `kindMasks`: 1 trade, 2 transaction, 4 movement).
    struct NumberCheck {
        let a: Source
        let b: Source
        let within: ExactDecimal
        let kinds: UInt8
        let message: String
        let name: String
    }
    let numberChecks: [NumberCheck]
    /// `rows.legs`: values whose rows are legs of a group's trades.
    let legKinds: [[UInt8]]
    /// Whether `rows.by` compares ignoring case (its column's map does).
    let rowKindIgnoresCase: Bool
    /// Per column: the kinds of rows it is read on (bits: 1 trade, 2 transaction, 4 movement).
    let kindMasks: [UInt8]
    /// Per column: its `match:` compiled.
    let matchers: [ColumnMatcher?]
    /// Per column: texts that stand for an empty cell (the column's and the spec's).
    let emptyTexts: [[[UInt8]]]
    /// Numbers with notations beyond digits and separators; nil when the spec has none.
    let numbers: SpecNumberReader?
    /// Per column: its own decimal separator (`decimal:` on the column), or nil for the spec's.
    let columnNumbers: [SpecNumberReader?]
    /// Whether a `rows.transaction` value gives several transactions (most specs: none).
    let someRowsGiveSeveral: Bool
    /// `wrapped:`'s column and its marker column, by index.
    let wrappedColumns: (column: Int, marker: Int)?
    /// Whether any number is read beyond plain digits and separators (most specs: none).
    let readsNotations: Bool
    /// Whether every column is read on every row from its own cell as it is: no `for`, `match`
    /// or `empty` texts (the hot loop then does not look for them).
    let plainColumns: Bool
    let group: GroupPlan?
    /// Per instrument column: its separators and listed pairs, as bytes, aliases applied.
    let instruments: [Instrument?]
    /// Per column: the separator of several values in one cell (`list:`), as bytes.
    let lists: [[UInt8]?]
    /// Whether any column has one (most specs have none: their cells are not searched for it).
    let hasLists: Bool

    struct Instrument: Sendable {
        /// Quote codes a value without a separator may end with, longest first.
        let quotes: [[UInt8]]
        let separators: [[UInt8]]
        let pairs: [(from: [UInt8], base: AssetCode, quote: AssetCode)]
        let description: String
    }

    init(_ spec: FormatSpec) {
        self.spec = spec
        var index: [String: Int] = [:]
        for (i, c) in spec.columns.enumerated() { index[c.name] = i }
        columnIndex = index
        patterns = spec.columns.map { c in
            switch c.type {
            case .dateTime(let p), .date(let p), .time(let p): return CompiledPattern(p)
            default: return nil
            }
        }
        lists = spec.columns.map { c in c.list.map { Array($0.utf8) } }
        hasLists = lists.contains { $0 != nil }
        maps = spec.columns.map { c in
            guard case .map(let entries, let ignoreCase) = c.type else { return nil }
            return entries.map { (ignoreCase ? Array($0.from.lowercased().utf8) : Array($0.from.utf8), $0.to) }
        }
        mapLists = spec.columns.map { c in
            guard case .map(let entries, _) = c.type else { return "" }
            let names = entries.map(\.from)
            return names.count == 2 ? "\(names[0]) or \(names[1])" : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        }
        checks = spec.checks.compactMap { check in
            guard let column = index[check.column] else { return nil }
            var segments: [Segment] = []
            var rest = Substring(check.equals)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { segments.append(.literal(Array(rest[..<open].utf8))) }
                if let i = index[String(rest[rest.index(after: open)..<close])] { segments.append(.column(i)) }
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { segments.append(.literal(Array(rest.utf8))) }
            return Check(column: column, segments: segments, lowercase: check.lowercase, message: check.message, name: check.column)
        }
        skips = spec.skip.compactMap { rule in
            index[rule.column].map { column in
                Skip(
                    column: column, equals: rule.equals.map { Array($0.utf8) }, reason: rule.reason,
                    and: rule.and.compactMap { c in index[c.column].map { ($0, c.equals.map { Array($0.utf8) }) } })
            }
        }
        func resolve(_ s: FieldSource?) -> Source? {
            guard let s else { return nil }
            switch s {
            case .column(let c): return index[c].map { .column($0) }
            case .constant(let t): return .constant(t)
            case .absolute(let c): return index[c].map { .absolute($0) }
            case .bySign(let c, let p, let n): return index[c].map { .bySign($0, SignTexts(positive: p, negative: n)) }
            case .part(let c, let i): return index[c].map { .part($0, i) }
            case .join(let parts, let sep):
                return .join(
                    parts.compactMap { part -> JoinPiece? in
                        switch part {
                        case .column(let c): return index[c].map { .column($0) }
                        case .text(let t): return .text(t)
                        }
                    }, sep)
            case .dateAndTime(let d, let t): return index[d].flatMap { d in index[t].map { .dateAndTime(d, $0) } }
            case .byType(let sources): return .byType(sources.compactMap { s in resolve(s.source).map { (s.type, $0) } })
            case .arithmetic(let op, let operands, let round):
                let resolved = operands.compactMap { resolve($0) }
                guard resolved.count == operands.count else { return nil }
                return .arithmetic(Arithmetic(op, resolved, round: round, text: Self.describe(s)))
            case .first(let sources): return .first(sources.compactMap { resolve($0) })
            case .conditional(let condition, let then, let otherwise):
                guard let t = resolve(then) else { return nil }
                let tests = condition.tests.compactMap { test in index[test.column].map { ($0, test.values) } }
                var near: (a: Source, b: Source, within: ExactDecimal)?
                if let n = condition.near, let a = resolve(n.a), let b = resolve(n.b), case .success(let w) = ExactDecimal.parse(n.within, style: .canonical) {
                    near = (a, b, w)
                }
                return .conditional(Conditional(tests, near: near, then: t, otherwise: resolve(otherwise)))
            case .parameter(let name): return .parameter(name)
            }
        }
        numberChecks = spec.numberChecks.enumerated().compactMap { i, c in
            guard let a = resolve(c.a), let b = resolve(c.b), case .success(let w) = ExactDecimal.parse(c.within, style: .canonical) else { return nil }
            let kinds = c.kinds.map { $0.reduce(UInt8(0)) { $0 | ($1 == "trade" ? 1 : $1 == "transaction" ? 2 : 4) } } ?? 7
            return NumberCheck(a: a, b: b, within: w, kinds: kinds, message: c.message, name: "checks[\(i)]")
        }
        let plainTrade = spec.trade.map { KindMapping($0, resolve, of: Trade.self) }
        // With rows.legs, trade rows are trades of their own and legs make the group's; without,
        // every trade row is a leg.
        var hasLegs = false
        if case .by(_, _, _, _, let legs) = spec.rows { hasLegs = !legs.isEmpty }
        trade = spec.group == nil || hasLegs ? plainTrade : plainTrade.map { KindMapping(grouping: $0) }
        groupTrade = spec.group == nil ? nil : plainTrade.map { KindMapping(grouping: $0) }
        transaction = spec.transaction.map { KindMapping($0, resolve, of: CashTransaction.self) }
        movement = spec.movement.map { KindMapping($0, resolve, of: Movement.self) }
        if case .column(let c)? = transaction?.source(TransactionField.status.rawValue) { statusColumn = c } else { statusColumn = nil }
        let kinds: [Kind] = spec.columns.map { c in
            switch c.type {
            case .text: return .text
            case .id: return .id
            case .asset: return .asset
            case .decimal(let check): return .decimal(check)
            case .dateTime: return .dateTime
            case .date: return .date
            case .time: return .time
            case .map(_, let ignoreCase): return .map(ignoreCase: ignoreCase)
            case .instrument: return .instrument
            }
        }
        self.kinds = kinds
        let empties: [Empty] = spec.columns.map { c in
            switch c.required {
            case .yes: return .refused
            case .no: return .allowed
            case .unlessZero(let other): return index[other].map { .allowedWhenZero($0) } ?? .allowed
            }
        }
        self.empties = empties
        switch spec.values.thousands {
        case .byte(let b)?: style = NumberStyle(decimalSeparator: spec.values.decimal, groupingSeparator: [b])
        case .space?: style = NumberStyle(decimalSeparator: spec.values.decimal, groupingSeparator: [0x20])
        case nil: style = NumberStyle(decimalSeparator: spec.values.decimal)
        }
        var aliases: [String: AssetCode] = [:]
        for (k, v) in spec.assets { if let code = AssetCode(v) { aliases[k.uppercased()] = code } }
        assetAliases = aliases
        func aliased(_ code: AssetCode) -> AssetCode { aliases[code.text] ?? code }
        instruments = spec.columns.map { c in
            guard case .instrument(let separators, let pairs, let quotes) = c.type else { return nil }
            return Instrument(
                quotes: quotes.map { Array($0.utf8) }.sorted { $0.count > $1.count },
                separators: separators.map { Array($0.utf8) },
                pairs: pairs.compactMap { p in
                    let parts = p.to.split(separator: "/")
                    guard parts.count == 2, let b = AssetCode(parts[0]), let q = AssetCode(parts[1]) else { return nil }
                    return (Array(p.from.utf8), aliased(b), aliased(q))
                },
                description: separators.joined(separator: " or "))
        }
        switch spec.rows {
        case .trades, .transactions, .movements:
            rowKindColumn = nil
            rowKindAlsoColumn = nil
            rowKindIgnoresCase = false
            legKinds = []
            tradeKinds = []
            transactionKinds = []
            movementKinds = []
        case .by(let column, let trades, let transactions, let movements, let legs):
            legKinds = legs.map { Array($0.utf8) }
            rowKindColumn = index[column]
            rowKindAlsoColumn = spec.rowKindAlso.flatMap { index[$0] }
            var ignoreCase = false
            if let c = index[column], case .map(_, true) = spec.columns[c].type { ignoreCase = true }
            func bytes(_ s: String) -> [UInt8] { Array((ignoreCase ? s.lowercased() : s).utf8) }
            tradeKinds = trades.map(bytes)
            transactionKinds = transactions.map { t in
                (
                    bytes(t.value),
                    t.types.map { rule -> TypeChoice in
                        switch rule {
                        case .mapping: return .mapping
                        case .fixed(let type): return .fixed(type)
                        case .bySign(let c, let p, let n): return index[c].map { .bySign($0, SignTexts(positive: p, negative: n)) } ?? .mapping
                        case .column(let c): return index[c].map { .column($0) } ?? .mapping
                        }
                    }
                )
            }
            movementKinds = movements.map(bytes)
            rowKindIgnoresCase = ignoreCase
        }
        kindMasks = spec.columns.map { c in
            // Bit 16: a row whose kind is unknown reads only the columns every row has.
            guard let kinds = c.kinds else { return 31 }
            return kinds.reduce(0) { $0 | ($1 == "trade" ? 1 : $1 == "transaction" ? 2 : $1 == "movement" ? 4 : 8) }
        }
        matchers = spec.columns.map { c in c.match.flatMap { ColumnMatcher($0) } }
        emptyTexts = spec.columns.map { c in (c.empty + spec.values.empty).map { Array($0.utf8) } }
        numbers = spec.values.notation.isPlain ? nil : SpecNumberReader(notation: spec.values.notation, style: style)
        columnNumbers = spec.columns.map { c in
            guard let d = c.decimal else { return nil }
            var notation = spec.values.notation
            notation.eitherDecimal = d == 0
            return SpecNumberReader(notation: notation, style: NumberStyle(decimalSeparator: d == 0 ? UInt8(ascii: ".") : d, groupingSeparator: [0x20]))
        }
        readsNotations = numbers != nil || columnNumbers.contains { $0 != nil }
        wrappedColumns = spec.wrapped.flatMap { w in index[w.column].flatMap { c in index[w.marker].map { (c, $0) } } }
        let movementValues = movementKinds
        alsoMovement = transactionKinds.map { t in movementValues.contains(t.from) }
        zoneColumn = spec.values.zoneColumn.flatMap { index[$0] }
        let transactionValues = transactionKinds.map(\.from)
        tradeTransactions = tradeKinds.map { t in transactionValues.firstIndex(of: t) }
        someRowsGiveSeveral =
            transactionKinds.contains { $0.types.count > 1 } || alsoMovement.contains(true) || tradeTransactions.contains { $0 != nil }
        plainColumns = kindMasks.allSatisfy { $0 == 31 } && matchers.allSatisfy { $0 == nil } && emptyTexts.allSatisfy(\.isEmpty)
        group = spec.group.flatMap { g in
            guard let asset = index[g.asset], let amount = index[g.amount] else { return nil }
            var ranks: [String: Int] = [:]
            for (r, q) in g.quotes.enumerated() where ranks[q.uppercased()] == nil { ranks[q.uppercased()] = r }
            return GroupPlan(
                key: g.key.compactMap { index[$0] }, asset: asset, amount: amount, feeColumn: g.feeColumn.flatMap { index[$0] },
                feeValues: g.feeValues.map { Array($0.utf8) }, legFee: g.legFee.flatMap { index[$0] },
                quoteRank: ranks, priceScale: g.priceScale)
        }
        var order: [Int] = []
        var placed = Set<Int>()
        let status = statusColumn
        // The row's kind first: columns read on some kinds only need it.
        if let c = rowKindColumn {
            order.append(c)
            placed.insert(c)
        }
        func place(_ i: Int) {
            guard placed.insert(i).inserted else { return }
            if case .allowedWhenZero(let o) = empties[i] { place(o) }
            if case .decimal(.transactionAmount) = kinds[i], let status { place(status) }
            order.append(i)
        }
        for i in spec.columns.indices { place(i) }
        readOrder = order
    }

    /// A field source as the spec writes it, for messages.
    static func describe(_ s: FieldSource) -> String {
        switch s {
        case .column(let c): return c
        case .constant(let t): return "'\(t)'"
        case .absolute(let c): return "abs(\(c))"
        case .arithmetic(let op, let operands, _):
            let symbol = ["add": " + ", "sub": " − ", "mul": " × ", "div": " ÷ "][op.rawValue] ?? ""
            if op == .abs { return "abs(" + describe(operands[0]) + ")" }
            if op == .max || op == .min { return op.rawValue + "(" + operands.map(describe).joined(separator: ", ") + ")" }
            return op == .neg ? "−" + describe(operands[0]) : operands.map(describe).joined(separator: symbol)
        case .first(let sources): return "the first of " + sources.map(describe).joined(separator: ", ")
        default: return "a value"
        }
    }
}

/// A column's `match:`: a regular expression whose group `value`, else first group, else whole
/// match is the text the column reads. Compiled with the plan, which a built-in spec makes only
/// when it is used (`BuiltInSpecReader`).
final class ColumnMatcher: @unchecked Sendable {
    // Regex is a value without shared mutable state; it is only matched against here.
    let regex: Regex<AnyRegexOutput>
    let pattern: String

    init?(_ pattern: String) {
        guard let regex = try? Regex(pattern) else { return nil }
        self.regex = regex
        self.pattern = pattern
    }

    /// The text the column reads from `cell`, or nil when the pattern does not match.
    func extract(_ cell: String) -> Substring? {
        guard let m = try? regex.firstMatch(in: cell) else { return nil }
        let output = m.output
        if let named = output["value"] { return named.substring }
        // The first group that took part in the match (alternatives: `^(?:(Koop|Sell) .*|(.*))$`).
        for k in output.indices.dropFirst() { if let s = output[k].substring { return s } }
        return output.count > 1 ? nil : output[0].substring
    }
}
