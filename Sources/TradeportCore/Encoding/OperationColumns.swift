/// tradeport's own row layout (`tradeport-csv`, `tradeport-xlsx`): one row per operation under a
/// header of canonical field names, derived from the field tables. The CSV and XLSX writers only
/// format the values; the specs that read the layouts back are generated from the same columns.
///
/// The columns: `kind` and `portfolio`, then every field of every kind in the tables' order (a
/// name two kinds share is one column), without the location; a trade's fees as an amount and a
/// currency column per fee kind (`fee.broker`, `fee.broker.currency`, …), several fees of one kind
/// as values joined by `;`; a transaction's fee as `fee` and `feeCurrency`.
public enum OperationColumns {
    /// What one column holds.
    public enum Content: Sendable, Hashable {
        case kind
        case portfolio
        /// A field of one or more kinds, by name.
        case field(String, FieldValueType)
        /// The amounts, or the currencies, of a trade's fees of one kind.
        case feeAmount(FeeKind)
        case feeCurrency(FeeKind)
        /// The amount, or the currency, of a cash transaction's fee.
        case cashFeeAmount
        case cashFeeCurrency
    }

    public struct Column: Sendable, Hashable {
        public let name: String
        public let content: Content
    }

    /// The columns, derived from the field tables of every operation kind.
    public static let columns: [Column] = columns(for: OperationKind.allCases.map(\.fields))

    /// The columns for these field tables, in order (each kind's fields in its table's order).
    public static func columns(for tables: [[FieldEntry]]) -> [Column] {
        var columns = [Column(name: "kind", content: .kind), Column(name: "portfolio", content: .portfolio)]
        var seen: Set<String> = ["kind", "portfolio"]
        func add(_ name: String, _ content: Content) {
            if seen.insert(name).inserted { columns.append(Column(name: name, content: content)) }
        }
        for table in tables {
            for entry in table {
                switch entry.definition.type {
                case .location: continue
                case .tradeFees:
                    for feeKind in FeeKind.allCases {
                        add("fee.\(feeKind.rawValue)", .feeAmount(feeKind))
                        add("fee.\(feeKind.rawValue).currency", .feeCurrency(feeKind))
                    }
                case .cashFee:
                    add("fee", .cashFeeAmount)
                    add("feeCurrency", .cashFeeCurrency)
                default:
                    add(entry.name, .field(entry.name, entry.definition.type))
                }
            }
        }
        return columns
    }

    /// The column names, in order.
    public static let names = columns.map(\.name)

    /// The separator of several values in one cell (several fees of one kind).
    public static let listSeparator = ";"

    /// One field's value, typed, so that each sink writes it in its own way.
    public enum Value {
        case text(String)
        case decimal(ExactDecimal)
        case time(Timestamp)
        case date(CalendarDate)
    }

    private static let index: [String: Int] = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })

    /// Per kind, per field of its table: the column it goes to (nil for the location and the fees,
    /// which have columns of their own).
    private static let tradeColumns: [Int?] = Trade.layout.fields.map { index[$0.rawValue] }
    private static let transactionColumns: [Int?] = CashTransaction.layout.fields.map { index[$0.rawValue] }
    private static let movementColumns: [Int?] = Movement.layout.fields.map { index[$0.rawValue] }
    /// Per kind, its fields in the order of their (first) columns, which writers need.
    private static let tradeOrder = columnOrder(Trade.layout, tradeColumns)
    private static let transactionOrder = columnOrder(CashTransaction.layout, transactionColumns)
    private static let movementOrder = columnOrder(Movement.layout, movementColumns)

    private static func columnOrder<Record>(_ layout: RecordLayout<Record>, _ columns: [Int?]) -> [Int] {
        func first(_ i: Int) -> Int {
            switch layout.definitions[i].type {
            case .tradeFees: return index["fee.\(FeeKind.allCases[0].rawValue)"]!
            case .cashFee: return index["fee"]!
            default: return columns[i] ?? Int.max
            }
        }
        return layout.fields.indices.sorted { first($0) < first($1) }
    }
    private static let feeKinds = FeeKind.allCases
    private static let feeColumns: [(amount: Int, currency: Int)] = feeKinds.map {
        (index["fee.\($0.rawValue)"]!, index["fee.\($0.rawValue).currency"]!)
    }
    private static let cashFeeColumns = (amount: index["fee"]!, currency: index["feeCurrency"]!)

    /// Calls `body` with each field the operation has, in column order: its column number (an
    /// index into `names`) and its value, in increasing column order. Absent fields are not called.
    public static func forEachField(
        of operation: PortfolioOperation, portfolio: String, _ body: (Int, Value) throws -> Void
    ) rethrows {
        switch operation {
        case .trade(let t):
            try body(0, .text("trade"))
            try body(1, .text(portfolio))
            try fields(of: t, tradeColumns, tradeOrder, body)
        case .transaction(let t):
            try body(0, .text("transaction"))
            try body(1, .text(portfolio))
            try fields(of: t, transactionColumns, transactionOrder, body)
        case .movement(let m):
            try body(0, .text("movement"))
            try body(1, .text(portfolio))
            try fields(of: m, movementColumns, movementOrder, body)
        }
    }

    @_specialize(where Record == Trade)
    @_specialize(where Record == CashTransaction)
    @_specialize(where Record == Movement)
    private static func fields<Record: CanonicalRecord>(
        of record: Record, _ columns: [Int?], _ order: [Int], _ body: (Int, Value) throws -> Void
    ) rethrows {
        let layout = Record.layout
        for i in order {
            let value = record[layout.fields[i]]
            switch value {
            case .null, .location: continue
            case .text(let t):
                if let c = columns[i] { try body(c, .text(t)) }
            case .asset(let a):
                if let c = columns[i] { try body(c, .text(a.text)) }
            case .decimal(let d):
                if let c = columns[i] { try body(c, .decimal(d)) }
            case .time(let t):
                if let c = columns[i] { try body(c, .time(t)) }
            case .date(let d):
                if let c = columns[i] { try body(c, .date(d)) }
            case .tradeFees(let fees):
                guard !fees.isEmpty else { continue }
                for k in feeKinds.indices {
                    // Columns go in fee-kind order; a kind's fees are found without a list unless several.
                    var first: TradeFee?
                    var count = 0
                    for fee in fees where fee.kind == feeKinds[k] {
                        if first == nil { first = fee }
                        count += 1
                    }
                    guard let first else { continue }
                    if count == 1 {
                        try body(feeColumns[k].amount, .decimal(first.amount))
                        try body(feeColumns[k].currency, .text(first.currency.text))
                    } else {
                        let ofKind = fees.filter { $0.kind == feeKinds[k] }
                        try body(feeColumns[k].amount, .text(ofKind.map(\.amount.description).joined(separator: listSeparator)))
                        try body(feeColumns[k].currency, .text(ofKind.map(\.currency.text).joined(separator: listSeparator)))
                    }
                }
            case .cashFee(let fee):
                try body(cashFeeColumns.amount, .decimal(fee.amount))
                try body(cashFeeColumns.currency, .text(fee.currency.text))
            }
        }
    }
}
