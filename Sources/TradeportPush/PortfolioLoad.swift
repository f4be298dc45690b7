import TradeportBalances

/// What to load into one server portfolio: records already mapped from canonical operations.
public struct PortfolioLoad: Sendable {
    public var name: String
    public var trades: [TradeRecord]
    public var transactions: [TransactionRecord]
    /// Operations that will not be sent, with why (counted as failed).
    public var refused: [String]
    /// Transactions not sent because they are not complete (the server takes only complete ones).
    public var incomplete = 0
    /// Movements (changes of positions without money) not sent: the server has no record for them.
    public var movements = 0

    public init(name: String, trades: [TradeRecord] = [], transactions: [TransactionRecord] = [], refused: [String] = []) {
        self.name = name
        self.trades = trades
        self.transactions = transactions
        self.refused = refused
    }

    public var operationCount: Int { trades.count + transactions.count }
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
