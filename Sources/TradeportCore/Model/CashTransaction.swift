/// A fee on a cash transaction.
public struct CashFee: Sendable, Hashable, Decodable {
    public var amount: ExactDecimal
    public var currency: AssetCode

    public init(amount: ExactDecimal, currency: AssetCode) {
        self.amount = amount
        self.currency = currency
    }
}

/// Money in or out of an account: deposits, withdrawals, dividends, taxes, fees… Its fields are
/// those of `TransactionField`, the table that says what each one is.
@dynamicMemberLookup
public struct CashTransaction: CanonicalRecord {
    /// The fields, one stored property per row of `TransactionField`. They are kept in one heap object that
    /// copies share until one of them changes (copy on write, as `Array` does): an operation is
    /// copied several times on its way from a reader to a writer, and a copy is then one reference
    /// count, not one per field.
    public struct Fields: Sendable, Hashable {
        /// Assigned by the conversion, as for `Trade.id`.
        public var id: String
        public var externalId: String?
        public var time: Timestamp
        public var type: CashTransactionType
        /// The currency or coin moved.
        public var asset: AssetCode
        /// > 0; ≥ 0 when `status` is not `complete`.
        public var amount: ExactDecimal
        public var fee: CashFee?
        public var status: TransactionStatus
        /// The ticker a dividend, coupon or redemption belongs to.
        public var security: String?
        public var note: String?
        /// The source's sub-account the money moved in or out of.
        public var account: String?
        /// The other side: the wallet or account the money came from or went to.
        public var counterparty: String?
        /// A blockchain transaction hash, when the source gives one.
        public var txHash: String?
        /// A deposit or withdrawal address, when the source gives one.
        public var address: String?
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
        id: String = "", externalId: String?, time: Timestamp, type: CashTransactionType, asset: AssetCode,
        amount: ExactDecimal, fee: CashFee? = nil, status: TransactionStatus = .complete, security: String? = nil,
        note: String? = nil, account: String? = nil, counterparty: String? = nil, txHash: String? = nil,
        address: String? = nil, source: SourceLocation
    ) {
        storage = SharedFields(
            Fields(
                id: id, externalId: externalId, time: time, type: type, asset: asset, amount: amount, fee: fee, status: status, security: security, note: note,
                account: account, counterparty: counterparty, txHash: txHash, address: address, source: source))
    }

    public static let kind = OperationKind.transaction
    public static let layout = RecordLayout<CashTransaction>()
    public static let placeholder = CashTransaction(
        externalId: nil, time: Timestamp(secondsSinceEpoch: 0), type: .deposit, asset: AssetCode.placeholder, amount: .zero,
        source: .nowhere)

    @inlinable
    public subscript(field: TransactionField) -> FieldValue {
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
    public static func make<E: Error>(_ value: (TransactionField) throws(E) -> FieldValue) throws(E) -> CashTransaction {
        var fields = placeholder.fields
        for field in layout.fields { fields[field] = try value(field) }
        return CashTransaction(fields: fields)
    }
}

extension CashTransaction.Fields {
    /// A field's value, read and set by the table's enum: the one place each field is matched
    /// to its stored property (the build fails until a new case is written here).
    @inlinable
    public subscript(field: TransactionField) -> FieldValue {
        @inline(__always)
        get {
            switch field {
            case .id: return .text(id)
            case .externalId: return .text(externalId)
            case .time: return .time(time)
            case .type: return .text(type.rawValue)
            case .asset: return .asset(asset)
            case .amount: return .decimal(amount)
            case .fee: return .cashFee(fee)
            case .status: return .text(status.rawValue)
            case .security: return .text(security)
            case .note: return .text(note)
            case .account: return .text(account)
            case .counterparty: return .text(counterparty)
            case .txHash: return .text(txHash)
            case .address: return .text(address)
            case .source: return .location(source)
            }
        }
        set {
            switch field {
            case .id: id = newValue.text ?? ""
            case .externalId: externalId = newValue.text
            case .time: time = newValue.time!
            case .type: type = CashTransactionType(rawValue: newValue.text!)!
            case .asset: asset = newValue.asset!
            case .amount: amount = newValue.decimal!
            case .fee: if case .cashFee(let f) = newValue { fee = f } else { fee = nil }
            case .status: status = TransactionStatus(rawValue: newValue.text!)!
            case .security: security = newValue.text
            case .note: note = newValue.text
            case .account: account = newValue.text
            case .counterparty: counterparty = newValue.text
            case .txHash: txHash = newValue.text
            case .address: address = newValue.text
            case .source: if case .location(let l) = newValue { source = l }
            }
        }
    }
}
