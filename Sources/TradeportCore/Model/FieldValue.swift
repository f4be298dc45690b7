@_exported import TradeportFields

/// One canonical field's value, typed by its definition (`FieldValueType`): what generic code —
/// the JSON writer and reader, the content hash, the own layouts, the spec reader — reads and
/// sets through a record's `subscript(field:)`.
public enum FieldValue: Sendable, Hashable {
    /// An optional field without a value.
    case null
    /// An id, a text, or the word of a choice.
    case text(String)
    case asset(AssetCode)
    case decimal(ExactDecimal)
    case time(Timestamp)
    case date(CalendarDate)
    case tradeFees([TradeFee])
    case cashFee(CashFee)
    case location(SourceLocation)

    @inlinable public var text: String? { if case .text(let t) = self { return t } else { return nil } }
    @inlinable public var asset: AssetCode? { if case .asset(let a) = self { return a } else { return nil } }
    @inlinable public var decimal: ExactDecimal? { if case .decimal(let d) = self { return d } else { return nil } }
    @inlinable public var time: Timestamp? { if case .time(let t) = self { return t } else { return nil } }
    @inlinable public var date: CalendarDate? { if case .date(let d) = self { return d } else { return nil } }
    @inlinable public var isNull: Bool { if case .null = self { return true } else { return false } }
    /// Null, or an empty list of fees.
    @inlinable public var isEmpty: Bool {
        switch self {
        case .null: return true
        case .tradeFees(let fees): return fees.isEmpty
        default: return false
        }
    }

    /// `.text` of an optional string, or `.null`.
    @inlinable public static func text(_ value: String?) -> FieldValue { value.map { .text($0) } ?? .null }
    @inlinable public static func decimal(_ value: ExactDecimal?) -> FieldValue { value.map { .decimal($0) } ?? .null }
    @inlinable public static func date(_ value: CalendarDate?) -> FieldValue { value.map { .date($0) } ?? .null }
    @inlinable public static func cashFee(_ value: CashFee?) -> FieldValue { value.map { .cashFee($0) } ?? .null }
}

extension DecimalSign {
    /// Whether `value` has this sign.
    @inlinable
    public func admits(_ value: ExactDecimal) -> Bool {
        switch self {
        case .any: return true
        case .nonNegative: return !value.isNegative
        case .positive: return value.isPositive
        }
    }

    /// What the sign asks for, for messages: `> 0`, `>= 0`, `any sign`.
    public var requirement: String {
        switch self {
        case .any: return "any sign"
        case .nonNegative: return ">= 0"
        case .positive: return "> 0"
        }
    }
}

/// An operation of one kind, whose fields are read and set by its field table: what lets the
/// writers, the reader, the identity and the specs handle every field without naming it.
///
/// The accessors take values that fit the field's definition (its type, its sign, its words); a value of the
/// wrong shape is a programming error.
public protocol CanonicalRecord: Sendable, Hashable {
    associatedtype Field: CanonicalField
    /// The kind this record is.
    static var kind: OperationKind { get }
    /// A record whose fields hold placeholders, to be set field by field (`make(_:)`).
    static var placeholder: Self { get }
    /// The field table, computed once: what generic code iterates.
    static var layout: RecordLayout<Self> { get }
    subscript(field: Field) -> FieldValue { get set }
    /// A record with each field's value from `value`, which must give every required field a
    /// value that fits it.
    static func make<E: Error>(_ value: (Field) throws(E) -> FieldValue) throws(E) -> Self
}

/// A kind's field table as generic code reads it on every operation: the fields in order with
/// their definitions and JSON member names, computed once from the table, in flat arrays that
/// are read without reference counting.
public struct RecordLayout<Record: CanonicalRecord>: Sendable {
    public let fields: [Record.Field]
    public let definitions: [FieldDefinition]
    /// Per field: whether it takes part in identity.
    public let identity: [Bool]
    /// Per field: the model version that added it.
    public let since: [Int]
    /// `"name":` of every field, one after another; field `i`'s is `keys[keyStart[i]..<keyStart[i + 1]]`.
    public let keys: [UInt8]
    public let keyStart: [Int]
    /// The field holding the operation's own id (of type `.id`), when the kind has one.
    public let idField: Int?

    public init() {
        fields = Array(Record.Field.allCases)
        definitions = fields.map(\.definition)
        identity = definitions.map(\.identity)
        since = definitions.map(\.since)
        idField = definitions.firstIndex { $0.type == .id }
        var keys: [UInt8] = []
        var starts: [Int] = []
        for field in fields {
            starts.append(keys.count)
            keys += Array("\"\(field.rawValue)\":".utf8)
        }
        starts.append(keys.count)
        self.keys = keys
        keyStart = starts
    }

    /// Field `i`'s member name, `"name":`, appended to `out`.
    @inline(__always)
    func appendKey(_ i: Int, to out: inout OutputBuffer) {
        keys.withUnsafeBytes { out.append(UnsafeRawBufferPointer(rebasing: $0[keyStart[i]..<keyStart[i + 1]])) }
    }

    /// The entries of the table, without the enum.
    public var entries: [FieldEntry] { zip(fields, definitions).map { FieldEntry(name: $0.rawValue, definition: $1) } }
}
