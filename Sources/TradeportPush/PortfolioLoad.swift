import TradeportBalances

/// What a dry run would load into one server portfolio: records already mapped from canonical
/// operations, and what was not mapped.
public struct PortfolioLoad: Sendable {
    public var name: String
    public var trades: [TradeRecord]
    public var transactions: [TransactionRecord]
    /// What will not be sent (refused, not complete, movements).
    public var tally: PortfolioTally

    public init(name: String, trades: [TradeRecord] = [], transactions: [TransactionRecord] = [], tally: PortfolioTally = PortfolioTally()) {
        self.name = name
        self.trades = trades
        self.transactions = transactions
        self.tally = tally
    }
}

/// What became of one portfolio's operations.
public struct PortfolioOutcome: Sendable, Equatable {
    public var name: String
    public var sent = 0
    public var alreadyPresent = 0
    public var failed = 0
    /// Operations the server held more than once before this run (a server without the
    /// uniqueness rule, loaded by something else): reported, left alone.
    public var heldTwice = 0
    /// Why the portfolio stopped, when it did.
    public var stopped: String?

    public init(name: String) { self.name = name }
}
