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
        case join([Int], String)
        case dateAndTime(Int, Int)
        case byType([(String, Source)])
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
    }

    /// What a column holds, without the strings of its spec: what the row loop switches on.
    enum Kind: Sendable {
        case text, id, asset, decimal(DecimalCheck), dateTime, date, time, map(ignoreCase: Bool), instrument
    }

    /// Whether an empty value is allowed: always, never, or when a decimal column is zero.
    enum Empty: Sendable {
        case allowed, refused, allowedWhenZero(Int)
    }

    /// Where each field of one kind's table comes from, by the table's order: what building an
    /// operation reads (the spec vocabulary and the model are one table, so nothing is named here).
    final class KindMapping: Sendable {
        /// What building a field does, from its definition, without its strings (read per row).
        enum Step: Sendable {
            case location, id, time, text, asset, decimal(DecimalSign), date, choice, tradeFees, cashFee
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
            var feeAmount: Source?, feeCurrency: Source?
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
        }

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
    let tradeKinds: [[UInt8]]
    let transactionKinds: [(from: [UInt8], type: String?)]
    let movementKinds: [[UInt8]]
    /// Per instrument column: its separators and listed pairs, as bytes, aliases applied.
    let instruments: [Instrument?]
    /// Per column: the separator of several values in one cell (`list:`), as bytes.
    let lists: [[UInt8]?]
    /// Whether any column has one (most specs have none: their cells are not searched for it).
    let hasLists: Bool

    struct Instrument: Sendable {
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
            index[rule.column].map { Skip(column: $0, equals: rule.equals.map { Array($0.utf8) }, reason: rule.reason) }
        }
        func resolve(_ s: FieldSource?) -> Source? {
            guard let s else { return nil }
            switch s {
            case .column(let c): return index[c].map { .column($0) }
            case .constant(let t): return .constant(t)
            case .absolute(let c): return index[c].map { .absolute($0) }
            case .bySign(let c, let p, let n): return index[c].map { .bySign($0, SignTexts(positive: p, negative: n)) }
            case .part(let c, let i): return index[c].map { .part($0, i) }
            case .join(let cs, let sep): return .join(cs.compactMap { index[$0] }, sep)
            case .dateAndTime(let d, let t): return index[d].flatMap { d in index[t].map { .dateAndTime(d, $0) } }
            case .byType(let sources): return .byType(sources.compactMap { s in resolve(s.source).map { (s.type, $0) } })
            }
        }
        trade = spec.trade.map { KindMapping($0, resolve, of: Trade.self) }
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
            guard case .instrument(let separators, let pairs) = c.type else { return nil }
            return Instrument(
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
            tradeKinds = []
            transactionKinds = []
            movementKinds = []
        case .by(let column, let trades, let transactions, let movements):
            rowKindColumn = index[column]
            tradeKinds = trades.map { Array($0.utf8) }
            transactionKinds = transactions.map { (Array($0.from.utf8), $0.to.isEmpty ? nil : $0.to) }
            movementKinds = movements.map { Array($0.utf8) }
        }
        var order: [Int] = []
        var placed = Set<Int>()
        let status = statusColumn
        func place(_ i: Int) {
            guard placed.insert(i).inserted else { return }
            if case .allowedWhenZero(let o) = empties[i] { place(o) }
            if case .decimal(.transactionAmount) = kinds[i], let status { place(status) }
            order.append(i)
        }
        for i in spec.columns.indices { place(i) }
        readOrder = order
    }
}
