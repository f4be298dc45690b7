/// A transaction type, as `rows.transaction` gives it.
public enum TypeRule: Sendable, Equatable {
    /// From the transaction mapping's `type`.
    case mapping
    case fixed(String)
    /// By the sign of a decimal column: a category whose rows are income or charge by their sign.
    case bySign(column: String, positive: String, negative: String)
    /// The value of a column (a map column's word): `{from: sweepType}`.
    case column(String)
}
