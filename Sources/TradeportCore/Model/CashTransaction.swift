/// What a cash transaction is. The type fixes the direction: money in or money out.
public enum CashTransactionType: String, Sendable, Hashable, Decodable, CaseIterable {
    case deposit, withdrawal, dividend
    case dividendCharge = "dividend-charge"
    case coupon, interest, tax
    case taxRefund = "tax-refund"
    case fee
    case feeRefund = "fee-refund"
    case redemption
    case otherIncome = "other-income"
    case otherCharge = "other-charge"

    /// Whether the money comes into the account.
    public var isIncoming: Bool {
        switch self {
        case .deposit, .dividend, .coupon, .interest, .taxRefund, .feeRefund, .redemption, .otherIncome: return true
        case .withdrawal, .dividendCharge, .tax, .fee, .otherCharge: return false
        }
    }
}

/// Whether a transaction moved money.
public enum TransactionStatus: String, Sendable, Hashable, Decodable {
    case complete, failed, rejected, pending
}

/// A fee on a cash transaction.
public struct CashFee: Sendable, Hashable, Decodable {
    public var amount: ExactDecimal
    public var currency: AssetCode

    public init(amount: ExactDecimal, currency: AssetCode) {
        self.amount = amount
        self.currency = currency
    }
}

/// Money in or out of an account: deposits, withdrawals, dividends, taxes, fees…
@dynamicMemberLookup
public struct CashTransaction: Sendable, Hashable, Decodable {
    /// The fields, stored once and shared between copies until one is changed: an operation is
    /// copied several times on its way from an adapter to a sink, and this makes a copy one
    /// reference count instead of one per field.
    public struct Fields: Sendable, Hashable, Decodable {
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
        /// The source's sub-account the money moved in or out of (an addition to the model's fields).
        public var account: String?
        /// The other side: the wallet or account the money came from or went to (an addition).
        public var counterparty: String?
        /// A blockchain transaction hash, when the source gives one (an addition).
        public var txHash: String?
        /// A deposit or withdrawal address, when the source gives one (an addition).
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

    public init(from decoder: any Decoder) throws { self.init(fields: try Fields(from: decoder)) }
}
