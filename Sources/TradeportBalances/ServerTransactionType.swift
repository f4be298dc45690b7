import TradeportCore

/// `Deposit` or `Withdraw`.
public enum ServerTransactionType: String, Sendable, Hashable, CaseIterable {
    case deposit = "Deposit"
    case withdraw = "Withdraw"
}
