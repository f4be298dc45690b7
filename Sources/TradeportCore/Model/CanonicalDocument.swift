/// A portfolio's operations.
public struct Portfolio: Sendable, Hashable, Decodable {
    public var name: String
    public var trades: [Trade]
    public var transactions: [CashTransaction]
    /// Changes of positions without money (absent from the JSON when there are none).
    public var movements: [Movement]

    public init(name: String, trades: [Trade] = [], transactions: [CashTransaction] = [], movements: [Movement] = []) {
        self.name = name
        self.trades = trades
        self.transactions = transactions
        self.movements = movements
    }

    private enum CodingKeys: String, CodingKey {
        case name, trades, transactions, movements
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        trades = try c.decode([Trade].self, forKey: .trades)
        transactions = try c.decode([CashTransaction].self, forKey: .transactions)
        movements = try c.decodeIfPresent([Movement].self, forKey: .movements) ?? []
    }
}

/// The canonical JSON document `convert` writes, as values (decodable from that JSON).
public struct CanonicalDocument: Sendable, Hashable, Decodable {
    /// The document's version: 1.
    public var tradeport: Int
    public var sources: [SourceSummary]
    public var portfolios: [Portfolio]
    public var skipped: [SkippedRow]
    public var rejected: [RejectedRow]
    public var warnings: [ConversionWarning]
    /// The balances the sources print, checked against what was read (absent from the JSON when
    /// no source prints any).
    public var reconciliation: [BalanceCheck]

    public init(
        tradeport: Int = 1, sources: [SourceSummary] = [], portfolios: [Portfolio] = [], skipped: [SkippedRow] = [],
        rejected: [RejectedRow] = [], warnings: [ConversionWarning] = [], reconciliation: [BalanceCheck] = []
    ) {
        self.tradeport = tradeport
        self.sources = sources
        self.portfolios = portfolios
        self.skipped = skipped
        self.rejected = rejected
        self.warnings = warnings
        self.reconciliation = reconciliation
    }

    private enum CodingKeys: String, CodingKey {
        case tradeport, sources, portfolios, skipped, rejected, warnings, reconciliation
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tradeport = try c.decode(Int.self, forKey: .tradeport)
        sources = try c.decode([SourceSummary].self, forKey: .sources)
        portfolios = try c.decode([Portfolio].self, forKey: .portfolios)
        skipped = try c.decode([SkippedRow].self, forKey: .skipped)
        rejected = try c.decode([RejectedRow].self, forKey: .rejected)
        warnings = try c.decode([ConversionWarning].self, forKey: .warnings)
        reconciliation = try c.decodeIfPresent([BalanceCheck].self, forKey: .reconciliation) ?? []
    }
}

/// Collects a conversion in memory as a `CanonicalDocument`, sorted as the JSON document is:
/// for library users and tests, on inputs that fit in memory.
public final class DocumentCollector: ConversionSink {
    public private(set) var document = CanonicalDocument()
    private var byName: [String: Int] = [:]

    public init() {}

    public func write(_ operation: PortfolioOperation, portfolio: String) throws {
        let i: Int
        if let found = byName[portfolio] {
            i = found
        } else {
            i = document.portfolios.count
            byName[portfolio] = i
            document.portfolios.append(Portfolio(name: portfolio))
        }
        switch operation {
        case .trade(let t): document.portfolios[i].trades.append(t)
        case .transaction(let t): document.portfolios[i].transactions.append(t)
        case .movement(let m): document.portfolios[i].movements.append(m)
        }
    }

    public func write(_ skipped: SkippedRow) throws { document.skipped.append(skipped) }
    public func write(_ rejected: RejectedRow) throws { document.rejected.append(rejected) }

    public func finish(_ report: ConversionReport) throws {
        document.sources = report.sources
        document.warnings = report.warnings
        document.reconciliation = report.reconciliation
        document.portfolios.sort { $0.name < $1.name }
        for i in document.portfolios.indices {
            // Stable sorts: equal times keep input order.
            document.portfolios[i].trades = stableSorted(document.portfolios[i].trades) { $0.time < $1.time }
            document.portfolios[i].transactions = stableSorted(document.portfolios[i].transactions) { $0.time < $1.time }
            document.portfolios[i].movements = stableSorted(document.portfolios[i].movements) { $0.time < $1.time }
        }
    }

    private func stableSorted<T>(_ items: [T], by less: (T, T) -> Bool) -> [T] {
        items.enumerated().sorted { less($0.element, $1.element) || (!less($1.element, $0.element) && $0.offset < $1.offset) }
            .map(\.element)
    }
}
