/// A declarative format: how a CSV file, or a sheet of an XLSX workbook, becomes canonical
/// operations. Loaded from YAML by `SpecLoader`, which checks every key and names the line of
/// every problem; every column, check and mapping keeps the place it was written.
public struct FormatSpec: Sendable, Equatable {
    public var id: String
    public var description: String
    public var source: Source
    public var values: ValueRules
    public var detect: DetectRule?
    /// In the order written, which is the order fields are read and errors reported.
    public var columns: [ColumnSpec]
    public var checks: [CrossCheck]
    public var skip: [SkipRule]
    public var rows: RowKinds
    /// Canonical trade field → where its value comes from.
    public var trade: OperationMapping?
    public var transaction: OperationMapping?
    /// Where each field of a movement (a change of a position without money) comes from.
    public var movement: OperationMapping?
    /// Rows that together make one trade (a ledger's spend and receive rows), when the format
    /// spreads trades over several rows.
    public var group: GroupRule?
    /// Asset code aliases (`XBT` → `BTC`).
    public var assets: [String: String]
    /// The file the spec was read from.
    public var file: String

    public func column(named name: String) -> ColumnSpec? { columns.first { $0.name == name } }

    /// Whether `id` is a format id: lower-case letters, digits and `-`, not starting with `-`.
    public static func isValidID(_ id: some StringProtocol) -> Bool {
        !id.isEmpty && !id.hasPrefix("-") && id.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }
}

/// Where the rows are.
public enum Source: Sendable, Equatable {
    case csv(CSVSource)
    case xlsx(XLSXSource)
}

public struct CSVSource: Sendable, Equatable {
    public enum Delimiter: Sendable, Equatable {
        case byte(UInt8)
        /// Sniffed from the first lines.
        case auto
    }
    public var delimiter: Delimiter
    /// nil: fields are never quoted.
    public var quote: UInt8?
    public var encoding: TextEncoding
    /// Lines before the header (or the data), skipped.
    public var skipLines: Int
    public var header: HeaderRule
    /// An exact number of fields per line, when the format has one.
    public var fields: Int?
}

public enum TextEncoding: String, Sendable, Equatable, CaseIterable {
    /// With or without a byte-order mark.
    case utf8 = "utf-8"
    case windows1251 = "windows-1251"
    case utf16le = "utf-16le"
    case utf16be = "utf-16be"
    /// Either UTF-16, by its byte-order mark.
    case utf16 = "utf-16"
}

public enum HeaderRule: Sendable, Equatable {
    /// No header: columns by position.
    case none
    /// The header is this 1-based row (after skipped lines, for CSV).
    case row(Int)
    /// The first row, within `within` rows, holding all these texts (compared without case,
    /// spaces and line breaks).
    case find([String], within: Int)
}

public struct XLSXSource: Sendable, Equatable {
    public enum Sheet: Sendable, Equatable {
        case name(String)
        /// 1-based.
        case index(Int)
    }
    public var sheet: Sheet
    public var header: HeaderRule
}

/// How values are written in the source.
public struct ValueRules: Sendable, Equatable {
    public enum Thousands: Sendable, Equatable {
        case byte(UInt8)
        /// A space: plain, no-break (U+00A0) or narrow no-break (U+202F).
        case space
    }
    public var decimal: UInt8
    public var thousands: Thousands?
    /// An IANA zone name for the source's local times.
    public var timeZone: String
    /// How numbers are written beyond digits and separators (symbols, parentheses, exponents,
    /// either decimal separator); nothing by default.
    public var notation = NumberNotation()
    /// Texts that stand for an empty cell in every column (`-`, `N/A`).
    public var empty: [String] = []
    /// The character a writer put before a text a spreadsheet would run as a formula (`'=1+2`,
    /// OWASP's guidance on CSV injection): one at the start of a text or id value is taken off.
    public var formulaQuote: UInt8?
    /// Whether texts carry OOXML's `_xHHHH_` escapes for characters the file cannot hold (a NUL
    /// in a CSV; `values.escapes: ooxml`): each is read back as its character, `_x005F_` as `_`.
    public var ooxmlEscapes = false

    public init(decimal: UInt8, thousands: Thousands?, timeZone: String) {
        self.decimal = decimal
        self.thousands = thousands
        self.timeZone = timeZone
    }
}

/// The number notations a source may use beyond `-`, digits and its separators.
public struct NumberNotation: Sendable, Equatable {
    /// Currency symbols that may stand before (or after) the digits and are dropped: `$`, `€`.
    public var symbols: [String] = []
    /// `(6.97)` is −6.97.
    public var parentheses = false
    /// `4.615E-06`: a power of ten after `E` or `e`.
    public var exponent = false
    /// Either `.` or `,` is the decimal separator, value by value (the other, or a space, groups
    /// thousands): `4,581.91`, `1 757,95` and `0,76672417` in one file.
    public var eitherDecimal = false

    public init() {}

    /// Whether any notation beyond plain digits is on.
    public var isPlain: Bool { symbols.isEmpty && !parentheses && !exponent && !eitherDecimal }
}

/// How detection recognizes the format from a file's first lines.
public struct DetectRule: Sendable, Equatable {
    /// Columns whose values must read well in most of the first lines.
    public var fit: [String]
    /// Header texts that must be present (for sources with a header).
    public var header: [String]
}

public struct ColumnSpec: Sendable, Equatable {
    public enum Reference: Sendable, Equatable {
        /// A header text and its aliases, compared without case, spaces and line breaks.
        case header([String])
        /// 1-based.
        case position(Int)
        /// The same cell as another column (read with a `match` of its own).
        case from(String)
    }
    public enum Required: Sendable, Equatable {
        case yes
        case no
        /// May be empty only when the named decimal column is zero.
        case unlessZero(String)
    }
    public var name: String
    public var reference: Reference
    public var required: Required
    public var type: ValueType
    /// What a good value looks like, for messages (`0,0025`).
    public var example: String?
    /// The separator of several values in one cell (`list: ";"`): each read as the column's type,
    /// for a field that holds several (a trade's fees of one kind). Nil: one value per cell.
    public var list: String?
    /// A regular expression the cell's text is searched with: the value is its group named
    /// `value`, else its first group, else the whole match; no match is an empty value.
    public var match: String?
    /// Texts that stand for an empty cell in this column (besides the spec's `values.empty`).
    public var empty: [String] = []
    /// The kinds of rows (trade, transaction, movement) this column is read on; nil: every row.
    public var kinds: [String]?
    /// A decimal column's own decimal separator (`.` or `,`; 0 for either), with spaces grouping
    /// thousands, where it differs from the spec's `values` (a price inside a description).
    public var decimal: UInt8?
    public var location: SpecLocation

    public init(
        name: String, reference: Reference, required: Required, type: ValueType, example: String? = nil,
        list: String? = nil, match: String? = nil, empty: [String] = [], kinds: [String]? = nil, location: SpecLocation
    ) {
        self.name = name
        self.reference = reference
        self.required = required
        self.type = type
        self.example = example
        self.list = list
        self.match = match
        self.empty = empty
        self.kinds = kinds
        self.location = location
    }
}

public enum DecimalCheck: String, Sendable, Equatable, CaseIterable {
    case positive
    case nonNegative = "non-negative"
    /// Greater than zero when the row's status is complete, at least zero otherwise.
    case transactionAmount = "transaction-amount"
    /// Any sign: a signed amount whose sign decides the kind.
    case signed
}

public indirect enum ValueType: Sendable, Equatable {
    case text
    /// Non-empty, no spaces.
    case id
    case asset
    case decimal(DecimalCheck)
    /// A pattern of `yyyy MM M dd d HH H mm ss` and literal characters.
    case dateTime(String)
    case date(String)
    case time(String)
    /// Source text → canonical value, exact (or ignoring case).
    case map([ValueMapEntry], ignoreCase: Bool)
    /// Two asset codes in one column (`BTC/USD`, `btc-usd`): a value listed in `pairs` (exact
    /// text → `BASE/QUOTE`, for names like Kraken's legacy `XXBTZUSD`), or else split at one of
    /// these separators.
    /// `quotes`: codes a value without a separator may end with (`XXBTZEUR` = `XXBT` + `ZEUR`).
    case instrument(separators: [String], pairs: [ValueMapEntry], quotes: [String] = [])
}

public struct ValueMapEntry: Sendable, Equatable {
    public var from: String
    public var to: String
}

/// A check across columns: `column` must equal the template (`{base}{quote}`), after lower-casing.
public struct CrossCheck: Sendable, Equatable {
    public var column: String
    public var equals: String
    public var lowercase: Bool
    public var message: String
    public var location: SpecLocation
}

/// Rows whose `column` holds one of `equals` are skipped with `reason`.
public struct SkipRule: Sendable, Equatable {
    public var column: String
    public var equals: [String]
    public var reason: String
    /// Further conditions, all of which must hold too (`and: [{column, equals}]`).
    public var and: [SkipCondition] = []
    public var location: SpecLocation
}

/// A column and the values that meet a condition (`""` is an empty cell).
public struct SkipCondition: Sendable, Equatable {
    public var column: String
    public var equals: [String]
}

/// Which rows are trades, which cash transactions and which movements.
public enum RowKinds: Sendable, Equatable {
    case trades
    case transactions
    case movements
    /// By a column's value: these values are trades; these are transactions, each of its types;
    /// these are movements.
    /// `legs`: values whose rows are legs of trades over several rows (`group:`), where other
    /// trades take one row each; without them, with a group, every trade row is a leg.
    case by(column: String, trade: [String], transaction: [RowTransaction], movement: [String], legs: [String] = [])
}

/// The rows of one value of `rows.by` that are transactions, and of which type: one, or several
/// (one row giving a dividend and its withholding tax: the second and later are made only where
/// their amount is present and not zero).
public struct RowTransaction: Sendable, Equatable {
    public var value: String
    public var types: [TypeRule]

    public init(value: String, types: [TypeRule]) {
        self.value = value
        self.types = types
    }
}

/// A transaction type, as `rows.transaction` gives it.
public enum TypeRule: Sendable, Equatable {
    /// From the transaction mapping's `type`.
    case mapping
    case fixed(String)
    /// By the sign of a decimal column: a category whose rows are income or charge by their sign.
    case bySign(column: String, positive: String, negative: String)
}

/// Rows that together make trades: consecutive rows of equal `key` (other rows may come between),
/// each a leg moving one asset by a signed amount. A leg whose amount is positive came in, one
/// whose amount is negative went out, a fee leg (by `fee`) is a fee; in-legs and out-legs pair in
/// file order into trades.
public struct GroupRule: Sendable, Equatable {
    public var key: [String]
    public var asset: String
    public var amount: String
    /// The rows that are fees: a column and its values.
    public var feeColumn: String?
    public var feeValues: [String]
    /// A column of each leg holding a fee charged in the leg's asset (Kraken's ledger `fee`).
    public var legFee: String?
    /// Assets that are quotes, the first the strongest: of a pair's two assets, the one listed
    /// earlier is the quote; when neither is listed, the one that went out.
    public var quotes: [String]
    /// Digits after the point the price (quote amount ÷ base quantity) is rounded to.
    public var priceScale: Int
    public var location: SpecLocation

    public init(
        key: [String], asset: String, amount: String, feeColumn: String?, feeValues: [String], legFee: String?,
        quotes: [String], priceScale: Int, location: SpecLocation
    ) {
        self.key = key
        self.asset = asset
        self.amount = amount
        self.feeColumn = feeColumn
        self.feeValues = feeValues
        self.legFee = legFee
        self.quotes = quotes
        self.priceScale = priceScale
        self.location = location
    }

    /// The trade fields a group gives (the `trade:` mapping gives the others, from the group's first row).
    public static let givenFields = ["side", "base", "quote", "quantity", "price", "amount", "fees"]
}

/// Canonical field → where its value comes from.
public struct OperationMapping: Sendable, Equatable {
    public var fields: [(name: String, source: FieldSource)]
    /// Fees (trades): each an amount, a currency and a kind.
    public var fees: [FeeMapping]
    public var location: SpecLocation

    public static func == (a: OperationMapping, b: OperationMapping) -> Bool {
        a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.source) == b.fields.map(\.source)
            && a.fees == b.fees && a.location == b.location
    }

    public func source(of field: String) -> FieldSource? { fields.first { $0.name == field }?.source }
}

public struct FeeMapping: Sendable, Equatable {
    public var amount: FieldSource
    public var currency: FieldSource
    public var kind: String
}

public indirect enum FieldSource: Sendable, Equatable {
    case column(String)
    case constant(String)
    /// A date column and a time column, read together in the source's zone.
    case dateAndTime(date: String, time: String)
    /// Several columns joined (an external id made of two).
    case join([String], separator: String)
    /// One part of an instrument column: 0 the base, 1 the quote.
    case part(String, Int)
    /// Different per transaction type (`deposit: to, withdrawal: from`).
    case byType([(type: String, source: FieldSource)])
    /// The absolute value of a signed decimal column.
    case absolute(String)
    /// One text or another by the sign of a decimal column (`deposit` when ≥ 0, `withdrawal` below).
    case bySign(String, positive: String, negative: String)
    /// Arithmetic on decimal values (`{div: [amount, units], round: 6}`); `round` digits after the
    /// point, half away from zero (a quotient needs it).
    case arithmetic(ArithmeticOperation, [FieldSource], round: Int?)
    /// The first of these that has a value (`{first: [isin, symbol]}`).
    case first([FieldSource])

    public static func == (a: FieldSource, b: FieldSource) -> Bool {
        switch (a, b) {
        case (.column(let x), .column(let y)), (.constant(let x), .constant(let y)), (.absolute(let x), .absolute(let y)):
            return x == y
        case (.dateAndTime(let d1, let t1), .dateAndTime(let d2, let t2)):
            return d1 == d2 && t1 == t2
        case (.join(let c1, let s1), .join(let c2, let s2)):
            return c1 == c2 && s1 == s2
        case (.part(let c1, let i1), .part(let c2, let i2)):
            return c1 == c2 && i1 == i2
        case (.bySign(let c1, let p1, let n1), .bySign(let c2, let p2, let n2)):
            return c1 == c2 && p1 == p2 && n1 == n2
        case (.byType(let x), .byType(let y)):
            return x.map(\.type) == y.map(\.type) && x.map(\.source) == y.map(\.source)
        case (.arithmetic(let o1, let a1, let r1), .arithmetic(let o2, let a2, let r2)):
            return o1 == o2 && a1 == a2 && r1 == r2
        case (.first(let x), .first(let y)):
            return x == y
        default:
            return false
        }
    }
}

/// `add`, `sub`, `mul`, `div` (two or more operands, left to right) and `neg` (one).
public enum ArithmeticOperation: String, Sendable, Equatable, CaseIterable {
    case add, sub, mul, div, neg
    /// Written `{abs: …}` (of a column, or of any value).
    case abs
}
