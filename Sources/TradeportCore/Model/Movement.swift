/// A change of a position without money: `quantity` units of `asset` into the account or out of
/// it, and why (a transfer, a delivery free of payment, a conversion, a split, the units a final
/// redemption takes out). Its fields are those of `MovementField`, the table that says what each
/// one is.
@dynamicMemberLookup
public struct Movement: CanonicalRecord {
    /// The fields, one stored property per row of `MovementField`, shared by copies until one
    /// changes (see `Trade.Fields`).
    public struct Fields: Sendable, Hashable {
        /// Assigned by the conversion, as for `Trade.id`.
        public var id: String
        public var externalId: String?
        public var time: Timestamp
        public var direction: MovementDirection
        /// The security or coin whose position changed.
        public var asset: AssetCode
        /// > 0, in the asset's units.
        public var quantity: ExactDecimal
        public var reason: MovementReason
        public var isin: String?
        public var name: String?
        public var note: String?
        /// The source's sub-account the units moved in or out of.
        public var account: String?
        public var source: SourceLocation
    }

    @usableFromInline
    var storage: SharedFields<Fields>

    /// All fields at once.
    @inlinable
    public var fields: Fields {
        get { storage.fields }
        set { storage = SharedFields(newValue) }
    }

    public init(fields: Fields) {
        storage = SharedFields(fields)
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.fields[keyPath: keyPath] }
        set { SharedFields.update(&storage, keyPath, newValue) }
    }

    public init(
        id: String = "", externalId: String?, time: Timestamp, direction: MovementDirection, asset: AssetCode,
        quantity: ExactDecimal, reason: MovementReason, isin: String? = nil, name: String? = nil, note: String? = nil,
        account: String? = nil, source: SourceLocation
    ) {
        storage = SharedFields(
            Fields(
                id: id, externalId: externalId, time: time, direction: direction, asset: asset, quantity: quantity, reason: reason, isin: isin, name: name,
                note: note, account: account, source: source))
    }

    public static let kind = OperationKind.movement
    public static let layout = RecordLayout<Movement>()
    public static let placeholder = Movement(
        externalId: nil, time: Timestamp(secondsSinceEpoch: 0), direction: .in, asset: AssetCode.placeholder, quantity: ExactDecimal(1),
        reason: .unstated, source: .nowhere)

    @inlinable
    public subscript(field: MovementField) -> FieldValue {
        @inline(__always)
        get { storage.fields[field] }
        set {
            var fields = storage.fields
            fields[field] = newValue
            storage = SharedFields(fields)
        }
    }

    /// A record with each field's value from `value` (see `CanonicalRecord.make`), built in one go.
    @inlinable
    public static func make<E: Error>(_ value: (MovementField) throws(E) -> FieldValue) throws(E) -> Movement {
        var fields = placeholder.fields
        for field in layout.fields { fields[field] = try value(field) }
        return Movement(fields: fields)
    }
}

extension Movement.Fields {
    /// A field's value, read and set by the table's enum: the one place each field is matched
    /// to its stored property (the build fails until a new case is written here).
    @inlinable
    public subscript(field: MovementField) -> FieldValue {
        @inline(__always)
        get {
            switch field {
            case .id: return .text(id)
            case .externalId: return .text(externalId)
            case .time: return .time(time)
            case .direction: return .text(direction.rawValue)
            case .asset: return .asset(asset)
            case .quantity: return .decimal(quantity)
            case .reason: return .text(reason.rawValue)
            case .isin: return .text(isin)
            case .name: return .text(name)
            case .note: return .text(note)
            case .account: return .text(account)
            case .source: return .location(source)
            }
        }
        set {
            switch field {
            case .id: id = newValue.text ?? ""
            case .externalId: externalId = newValue.text
            case .time: time = newValue.time!
            case .direction: direction = MovementDirection(rawValue: newValue.text!)!
            case .asset: asset = newValue.asset!
            case .quantity: quantity = newValue.decimal!
            case .reason: reason = MovementReason(rawValue: newValue.text!)!
            case .isin: isin = newValue.text
            case .name: name = newValue.text
            case .note: note = newValue.text
            case .account: account = newValue.text
            case .source: if case .location(let l) = newValue { source = l }
            }
        }
    }
}
