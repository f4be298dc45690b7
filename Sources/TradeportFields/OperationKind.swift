/// The kinds of canonical operation, each with its field table.
public enum OperationKind: String, Sendable, Hashable, CaseIterable {
    case trade
    case transaction
    case movement

    /// The kind's fields, in the canonical order.
    public var fields: [FieldEntry] {
        switch self {
        case .trade: return TradeField.table
        case .transaction: return TransactionField.table
        case .movement: return MovementField.table
        }
    }

    /// One line saying what an operation of this kind is, for the schema and the docs.
    public var summary: String {
        switch self {
        case .trade: return "A trade: base bought or sold for quote."
        case .transaction: return "A cash transaction; the type fixes the direction."
        case .movement: return "A change of a position without money: units of an asset in or out, and why."
        }
    }
}
