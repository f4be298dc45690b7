import TradeportBalances
import TradeportCore

/// A value bound to a statement.
enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
}
