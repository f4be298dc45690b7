/// A fee on a cash transaction.
public struct CashFee: Sendable, Hashable {
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
        storage = SharedFields(Fields(id: id, externalId: externalId, time: time, type: type, asset: asset, amount: amount, fee: fee, status: status, security: security, note: note, account: account, counterparty: counterparty, txHash: txHash, address: address, source: source))
    }

    public static let kind = OperationKind.transaction
    public static let layout = RecordLayout<CashTransaction>()
    public static let placeholder = CashTransaction(
        externalId: nil, time: Timestamp(secondsSinceEpoch: 0), type: .deposit, asset: AssetCode.placeholder, amount: .zero,
        source: .nowhere)

    @inlinable
    public subscript(field: TransactionField) -> FieldValue {
        @inline(__always)
        get {
            switch field {
            case .id: return .text(storage.fields.id)
            case .externalId: return .text(storage.fields.externalId)
            case .time: return .time(storage.fields.time)
            case .type: return .text(storage.fields.type.rawValue)
            case .asset: return .asset(storage.fields.asset)
            case .amount: return .decimal(storage.fields.amount)
            case .fee: return .cashFee(storage.fields.fee)
            case .status: return .text(storage.fields.status.rawValue)
            case .security: return .text(storage.fields.security)
            case .note: return .text(storage.fields.note)
            case .account: return .text(storage.fields.account)
            case .counterparty: return .text(storage.fields.counterparty)
            case .txHash: return .text(storage.fields.txHash)
            case .address: return .text(storage.fields.address)
            case .source: return .location(storage.fields.source)
            }
        }
        set {
            switch field {
            case .id: self.id = newValue.text ?? ""
            case .externalId: self.externalId = newValue.text
            case .time: self.time = newValue.time!
            case .type: self.type = CashTransactionType(rawValue: newValue.text!)!
            case .asset: self.asset = newValue.asset!
            case .amount: self.amount = newValue.decimal!
            case .fee: if case .cashFee(let f) = newValue { self.fee = f } else { self.fee = nil }
            case .status: self.status = TransactionStatus(rawValue: newValue.text!)!
            case .security: self.security = newValue.text
            case .note: self.note = newValue.text
            case .account: self.account = newValue.text
            case .counterparty: self.counterparty = newValue.text
            case .txHash: self.txHash = newValue.text
            case .address: self.address = newValue.text
            case .source: if case .location(let l) = newValue { self.source = l }
            }
        }
    }
}
