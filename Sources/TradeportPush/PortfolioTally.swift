import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

/// What a portfolio's operations held besides the records handed over.
public struct PortfolioTally: Sendable, Equatable {
    /// Operations that cannot be mapped, each with why (counted as failed).
    public var refused: [String] = []
    /// Transactions not sent because they are not complete (the server takes only complete ones).
    public var incomplete = 0
    /// Movements not sent: the server has no record for them.
    public var movements = 0

    public init() {}

    mutating func add(_ other: PortfolioTally) {
        refused += other.refused
        incomplete += other.incomplete
        movements += other.movements
    }
}
