/// Which rows are trades, which cash transactions and which movements.
public enum RowKinds: Sendable, Equatable {
    case trades
    case transactions
    case movements
    /// By a column's value: these values are trades; these are transactions, each of its types;
    /// these are movements.
    /// `legs`: values whose rows are legs of trades over several rows (`group:`), where other
    /// trades take one row each; without them, with a group, every trade row is a leg.
    case by(column: String, trade: [String], transaction: [RowTransaction], movement: [String], legs: [String] = [])
}
