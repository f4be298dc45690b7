/// What one canonical field is: the kind of value it holds, whether it may be absent, whether it
/// takes part in an operation's identity, and who fills it. A row of an operation kind's field
/// table (`TradeField`, `TransactionField`, `MovementField`): everything that names fields — the canonical JSON
/// writer and reader, the JSON Schema, tradeport's own CSV and XLSX columns, the content hash, the
/// spec language's vocabulary, the balances mapping — is derived from these tables.
public struct FieldDefinition: Sendable, Hashable {
    /// The kind of value.
    public var type: FieldValueType
    /// Whether the field always has a value (`required`) or may be null (`optional`).
    public var presence: FieldPresence
    /// Whether the field takes part in what makes an operation the same operation (its content
    /// hash and its content id); the id and the location do not.
    public var identity: Bool
    /// Filled by the conversion, not by a reader: the canonical id (a reader may carry one) and
    /// where the operation was read.
    public var assigned: Bool
    /// The version of the model that added the field: 1 for the fields of the base contract. A
    /// field added later joins an operation's content id only when it has a value, so the ids of
    /// operations without it do not change.
    public var since: Int
    /// What a reader gives a required field when the source says nothing of it (the word of a
    /// choice: a transaction's status is `complete`); nil when the source must say.
    public var defaultValue: String?
    /// One line saying what the field holds, for the schema and the docs.
    public var summary: String

    public init(
        _ type: FieldValueType, _ presence: FieldPresence, identity: Bool = true, assigned: Bool = false, since: Int = 1,
        default defaultValue: String? = nil, _ summary: String
    ) {
        self.type = type
        self.presence = presence
        self.identity = identity
        self.assigned = assigned
        self.since = since
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// Whether a reader must give the field a value: required, not filled by the conversion,
    /// without a default, and not a list (which may be empty).
    public var readerMustGive: Bool {
        guard presence == .required, !assigned, defaultValue == nil else { return false }
        switch type {
        case .tradeFees, .location: return false
        default: return true
        }
    }
}

/// The kind of value a canonical field holds.
public enum FieldValueType: Sendable, Hashable {
    /// The operation's canonical id: `<format>:<venue id>` or `<format>:~<hash>.<n>`.
    case id
    case text
    /// An asset code, upper case.
    case asset
    /// An exact decimal, written as a JSON string.
    case decimal(DecimalSign)
    /// An instant, RFC 3339 with an offset.
    case time
    /// A calendar date, `YYYY-MM-DD`.
    case date
    /// One of a fixed set of words (a side, a transaction type, a status).
    case choice([String])
    /// A trade's fees: a list of `{amount, currency, kind}`.
    case tradeFees
    /// A cash transaction's fee: `{amount, currency}`.
    case cashFee
    /// Where the operation was read: `{path, row, sheet}`.
    case location
}

/// The sign a decimal field allows.
public enum DecimalSign: String, Sendable, Hashable {
    case any
    case nonNegative = "non-negative"
    case positive
}

/// Whether a field always has a value.
public enum FieldPresence: String, Sendable, Hashable {
    case required
    /// May be null.
    case optional
}

/// The fields of one operation kind, as a `CaseIterable` enum whose cases are the field names in
/// the canonical order (the order of the JSON members and of tradeport's own columns).
public protocol CanonicalField: CaseIterable, Hashable, Sendable, RawRepresentable where RawValue == String {
    /// The field's row of the table.
    var definition: FieldDefinition { get }
}

extension CanonicalField {
    /// The field's name, as written in JSON, in specs and in tradeport's own layouts.
    @inlinable
    public var name: String { rawValue }

    /// Every field with its definition, in the canonical order.
    public static var table: [FieldEntry] { allCases.map { FieldEntry(name: $0.rawValue, definition: $0.definition) } }
}

/// One row of a field table, without the enum it came from: what code that is not generic over the
/// kind (the schema, the spec vocabulary, the column layout) reads.
public struct FieldEntry: Sendable, Hashable {
    public var name: String
    public var definition: FieldDefinition

    public init(name: String, definition: FieldDefinition) {
        self.name = name
        self.definition = definition
    }
}
