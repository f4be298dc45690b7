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

/// Whether a transaction moved money.
public enum TransactionStatus: String, Sendable, Hashable, CaseIterable, Decodable {
    case complete, failed, rejected, pending
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// Every value's text, in declaration order: a choice field's allowed words.
    public static var words: [String] { allCases.map(\.rawValue) }
}
