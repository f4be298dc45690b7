public enum DecimalCheck: String, Sendable, Equatable, CaseIterable {
    case positive
    case nonNegative = "non-negative"
    /// Greater than zero when the row's status is complete, at least zero otherwise.
    case transactionAmount = "transaction-amount"
    /// Any sign: a signed amount whose sign decides the kind.
    case signed
}
