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
public struct CashTransaction: CanonicalRecord {
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

    public init(
        id: String = "", externalId: String?, time: Timestamp, type: CashTransactionType, asset: AssetCode,
        amount: ExactDecimal, fee: CashFee? = nil, status: TransactionStatus = .complete, security: String? = nil,
        note: String? = nil, account: String? = nil, counterparty: String? = nil, txHash: String? = nil,
        address: String? = nil, source: SourceLocation
    ) {
        self.id = id
        self.externalId = externalId
        self.time = time
        self.type = type
        self.asset = asset
        self.amount = amount
        self.fee = fee
        self.status = status
        self.security = security
        self.note = note
        self.account = account
        self.counterparty = counterparty
        self.txHash = txHash
        self.address = address
        self.source = source
    }

    public static let kind = OperationKind.transaction
    public static let layout = RecordLayout<CashTransaction>()
    public static let placeholder = CashTransaction(
        externalId: nil, time: Timestamp(secondsSinceEpoch: 0), type: .deposit, asset: AssetCode.placeholder, amount: .zero,
        source: .nowhere)

    public subscript(field: TransactionField) -> FieldValue {
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
