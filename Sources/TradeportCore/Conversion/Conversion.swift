import Foundation

/// How a conversion assigns operations to portfolios and what it keeps.
public struct ConversionOptions: Sendable {
    /// The portfolio everything goes to (or, with `splitAccounts`, what has no sub-account).
    public var portfolio: String
    /// One portfolio per source sub-account.
    public var splitAccounts: Bool
    /// Output failed and rejected transactions (with their status) instead of skipping them.
    public var keepFailed: Bool
    /// Options for the readers.
    public var read: ReadOptions

    public init(portfolio: String = "main", splitAccounts: Bool = false, keepFailed: Bool = false, read: ReadOptions = ReadOptions()) {
        self.portfolio = portfolio
        self.splitAccounts = splitAccounts
        self.keepFailed = keepFailed
        self.read = read
    }
}

/// What became of one source's rows: `rows + extra == operations + merged + skipped + rejected +
/// duplicates` (`merged`: rows read into an operation of several rows; `extra`: operations beyond
/// the first that one row gives).
public struct SourceSummary: Sendable, Hashable, Decodable {
    public var path: String
    public var format: String
    public var sha256: String
    public var rows = 0
    public var operations = 0
    public var skipped = 0
    public var rejected = 0
    public var duplicates = 0
    /// Rows read into an operation another row carries (the legs of a trade over several rows).
    public var merged = 0
    /// Operations beyond the first that one row gives (a dividend and its withholding tax).
    public var extra = 0

    public init(path: String, format: String, sha256: String = "") {
        self.path = path
        self.format = format
        self.sha256 = sha256
    }

    private enum CodingKeys: String, CodingKey {
        case path, format, sha256, rows, operations, skipped, rejected, duplicates, merged, extra
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decode(String.self, forKey: .path)
        format = try c.decode(String.self, forKey: .format)
        sha256 = try c.decodeIfPresent(String.self, forKey: .sha256) ?? ""
        rows = try c.decode(Int.self, forKey: .rows)
        operations = try c.decode(Int.self, forKey: .operations)
        skipped = try c.decode(Int.self, forKey: .skipped)
        rejected = try c.decode(Int.self, forKey: .rejected)
        duplicates = try c.decode(Int.self, forKey: .duplicates)
        merged = try c.decodeIfPresent(Int.self, forKey: .merged) ?? 0
        extra = try c.decodeIfPresent(Int.self, forKey: .extra) ?? 0
    }

    /// Whether every row is accounted for.
    public var addsUp: Bool { rows + extra == operations + merged + skipped + rejected + duplicates }
}

/// The end of a conversion, for the sink and the user.
public struct ConversionReport: Sendable {
    public var sources: [SourceSummary]
    public var warnings: [ConversionWarning]
    /// The first rejects, for a summary (all of them went to the sink).
    public var firstRejects: [RejectedRow]
    public var trades: Int
    public var transactions: Int
    /// Changes of positions without money.
    public var movements: Int = 0
    /// Portfolio names, sorted.
    public var portfolios: [String]
    /// The balances sources print, checked against what was read from them (see `BalanceCheck`).
    public var reconciliation: [BalanceCheck] = []
    /// What each portfolio holds of each asset at the end, from zero (`BalanceLedger`), by
    /// portfolio then asset: what the ledger writers' balances are checked against.
    public var balances: [PortfolioBalance] = []

    public var rows: Int { sources.reduce(0) { $0 + $1.rows } }
    public var operations: Int { sources.reduce(0) { $0 + $1.operations } }
    public var skipped: Int { sources.reduce(0) { $0 + $1.skipped } }
    public var rejected: Int { sources.reduce(0) { $0 + $1.rejected } }
    public var duplicates: Int { sources.reduce(0) { $0 + $1.duplicates } }
    public var merged: Int { sources.reduce(0) { $0 + $1.merged } }
    public var extra: Int { sources.reduce(0) { $0 + $1.extra } }
}

/// Runs sources through their readers into a sink: assigns ids and portfolios, drops
/// duplicates, rejects conflicts, skips failed transactions, counts every row, and at the end
/// replays balances for warnings; checks a source that prints its balances against them.
public final class Conversion<Sink: ConversionSink> {
    public let options: ConversionOptions
    public let sink: Sink
    private var index = OperationIndex()
    private var ledger = BalanceLedger()
    private var sources: [SourceSummary] = []
    private var firstRejects: [RejectedRow] = []
    private var trades = 0
    private var transactions = 0
    private var movements = 0
    private var portfolios: Set<String> = []
    private var reconciliation: [BalanceCheck] = []
    /// What the readers said of their sources as a whole, in the sources' order.
    private var sourceWarnings: [ConversionWarning] = []

    /// How many rejects the report keeps for display.
    public static var rejectsShown: Int { 10 }

    /// The sink, when it takes operations prepared on the reader's threads.
    private let preparedSink: (any PreparedOperationSink)?

    public init(options: ConversionOptions, sink: Sink) {
        self.options = options
        self.sink = sink
        preparedSink = sink as? any PreparedOperationSink
    }

    /// Sizes the tables for about `count` operations in all, so large inputs do not rehash.
    public func reserveCapacity(operations count: Int) {
        index.reserve(count)
    }

    /// Reads one source to the end with `reader`. Throws when the source cannot be read as a
    /// whole (the reader's or the sink's error); its rows so far have then reached the sink.
    ///
    /// Two threads share the work: one reads and parses the source, assigns ids and drops
    /// duplicates; this one keeps the balances and feeds the sink, in the source's order.
    @discardableResult
    public func add(_ input: SourceInput, reader: any FormatReader) throws -> SourceSummary {
        let stage = IdentityStage(
            input: input, reader: reader, options: options, sourceIndex: sources.count,
            earlierPaths: sources.map(\.path), index: index, preparedForm: preparedSink?.preparedForm)
        index = OperationIndex()
        let channel = BatchChannel<IdentityStage.Decision>(capacity: 8)
        let thread = Thread { stage.run(into: channel) }
        thread.stackSize = 8 << 20
        thread.start()

        var ledger = self.ledger
        self.ledger = BalanceLedger()
        var failure: (any Error)?
        var lastPortfolio: String?
        /// Counts an operation of `kind` going to `portfolio`.
        func count(_ kind: OperationKind, _ portfolio: String) {
            if portfolio != lastPortfolio {
                portfolios.insert(portfolio)
                lastPortfolio = portfolio
            }
            switch kind {
            case .trade: trades += 1
            case .transaction: transactions += 1
            case .movement: movements += 1
            }
        }
        while let batch = channel.receive() {
            guard failure == nil else { continue }
            do {
                for decision in batch {
                    switch decision {
                    case .operation(var operation, let id, let portfolio):
                        if let id { operation.id = id }
                        count(operation.kind, portfolio)
                        ledger.record(operation, portfolio: portfolio)
                        try sink.write(operation, portfolio: portfolio)
                    case .prepared(let operation):
                        count(operation.kind, operation.portfolio)
                        ledger.record(operation)
                        try preparedSink!.write(prepared: operation)
                    case .skipped(let row):
                        try sink.write(row)
                    case .rejected(let row):
                        if firstRejects.count < Self.rejectsShown { firstRejects.append(row) }
                        try sink.write(row)
                    }
                }
            } catch {
                failure = error
                channel.cancel()
            }
        }
        // The channel is closed: the stage is done and its results are visible here.
        // A source's opening balances seed the replay of the portfolio its operations go to.
        for statement in stage.statements { ledger.state(statement, portfolio: options.portfolio) }
        self.ledger = ledger
        index = stage.index
        // The summary is kept even when the source failed part-way: its operations are in the
        // index and reached the sink, and later sources number themselves after it.
        var summary = stage.summary
        summary.sha256 = input.sha256Hex()
        sources.append(summary)
        reconciliation += stage.checks
        sourceWarnings += stage.warnings
        if let error = stage.failure ?? failure { throw error }
        return summary
    }

    /// Ends the conversion: computes the warnings and hands the report to the sink.
    @discardableResult
    public func finish() throws -> ConversionReport {
        let replayed = try ledger.replay()
        let report = ConversionReport(
            sources: sources, warnings: sourceWarnings + reconciliation.compactMap(\.warning) + replayed.warnings,
            firstRejects: firstRejects, trades: trades, transactions: transactions, movements: movements,
            portfolios: portfolios.sorted(), reconciliation: reconciliation, balances: replayed.balances)
        try sink.finish(report)
        return report
    }
}
