/// Which way a trade went: the base asset was bought or sold.
public enum TradeSide: String, Sendable, Hashable, CaseIterable, Decodable {
    case buy, sell
}

/// Who charged a fee.
public enum FeeKind: String, Sendable, Hashable, CaseIterable, Decodable {
    case broker, exchange, clearing, other
}

/// What a cash transaction is. The type fixes the direction: money in or money out.
public enum CashTransactionType: String, Sendable, Hashable, CaseIterable, Decodable {
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

/// Which way a movement went: units into the account or out of it.
public enum MovementDirection: String, Sendable, Hashable, CaseIterable, Decodable {
    case `in`, out

    /// Whether the units come into the account.
    public var isIncoming: Bool { self == .in }
}

/// Why a position changed without money.
public enum MovementReason: String, Sendable, Hashable, CaseIterable, Decodable {
    /// Between accounts or depositories of the same owner, or from another broker.
    case transfer
    /// Delivered free of payment (DFP/RFP) against a deal settled elsewhere.
    case delivery
    /// Exchanged for another security (a fund's new ISIN, a merger), with no money.
    case conversion
    /// A split, a reverse split or a bonus issue.
    case split
    /// A bond redeemed in full: its money is a `redemption` transaction, its units leave here.
    case redemption
    /// The source moves the units without saying why.
    case unstated
}

/// Whether a transaction moved money.
public enum TransactionStatus: String, Sendable, Hashable, CaseIterable, Decodable {
    case complete, failed, rejected, pending
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// Every value's text, in declaration order: a choice field's allowed words.
    public static var words: [String] { allCases.map(\.rawValue) }
}
