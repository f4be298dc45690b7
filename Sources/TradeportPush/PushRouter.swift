import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

/// The conversion's sink for a push: each operation mapped to the server's record once, and
/// routed to its portfolios' batches, handed over as each fills. A model value is mapped and
/// written here; a reader that prepares operations on its own threads (opt-in) maps and writes
/// them there (`ServerRecordRenderer`), and the router only routes their bytes.
final class PushRouter: PreparedOperationSink {
    struct Stopped: Error {}

    /// A portfolio operations go to: its tally and the records waiting to be handed over.
    struct Target {
        let name: String
        var tally = PortfolioTally()
        var trades = EncodedRecords()
        var transactions = EncodedRecords()
    }

    var preparedForm: PreparedForm { .rendered(ServerRecordRenderer()) }

    private let route: PushPlan.Route
    private let batchSize: Int
    private let emit: (PushBatch) -> Bool
    /// In the order their first operation came.
    private(set) var targets: [Target] = []
    private var index: [String: Int] = [:]
    /// Per sub-account no portfolio takes: its trades and transactions.
    private(set) var unclaimed: [String: (trades: Int, transactions: Int)] = [:]
    /// The targets of the last portfolio seen (operations come in runs of one portfolio).
    private var last: (portfolio: String, targets: [Int])?

    /// Told of each rejected row, when given.
    private let rejected: ((RejectedRow) -> Void)?

    init(route: PushPlan.Route, batchSize: Int, rejected: ((RejectedRow) -> Void)? = nil, emit: @escaping (PushBatch) -> Bool) {
        self.route = route
        self.rejected = rejected
        self.batchSize = max(batchSize, 1)
        self.emit = emit
    }

    /// Where the operations the conversion put in `portfolio` go, as positions in `targets`.
    private func targets(of portfolio: String) -> [Int] {
        if let last, last.portfolio == portfolio { return last.targets }
        let positions = route.names(for: portfolio).map { name in
            if let i = index[name] { return i }
            index[name] = targets.count
            targets.append(Target(name: name))
            return targets.count - 1
        }
        last = (portfolio, positions)
        return positions
    }

    /// The targets of operations the conversion put in `portfolio`, or nil when none takes them
    /// (counted then as not pushed).
    private func claimed(_ kind: OperationKind, portfolio: String) -> [Int]? {
        let positions = targets(of: portfolio)
        guard positions.isEmpty else { return positions }
        // Movements too: a sub-account with nothing else is still reported.
        var count = unclaimed[portfolio] ?? (0, 0)
        switch kind {
        case .trade: count.trades += 1
        case .transaction: count.transactions += 1
        case .movement: break
        }
        unclaimed[portfolio] = count
        return nil
    }

    /// An operation as a model value: mapped to the server's record here, and routed.
    func write(_ operation: PortfolioOperation, portfolio: String) throws {
        guard let positions = claimed(operation.kind, portfolio: portfolio) else { return }
        switch BalancesMapping.map(operation) {
        case .trade(let record):
            var object = OutputBuffer(capacity: 320)
            record.append(to: &object, secondsAlways: true)
            try route(.trade, object: object.bytes, valueId: record.valueId, to: positions)
        case .transaction(let record):
            var object = OutputBuffer(capacity: 320)
            record.append(to: &object, secondsAlways: true)
            try route(.transaction, object: object.bytes, valueId: record.valueId, to: positions)
        case .refused(let refusal):
            for i in positions { targets[i].tally.refused.append(refusal.description) }
        case .incomplete:
            for i in positions { targets[i].tally.incomplete += 1 }
        case .movement:
            for i in positions { targets[i].tally.movements += 1 }
        }
    }

    /// An operation a reader mapped and wrote on its threads (`ServerRecordRenderer`): its bytes
    /// say what it is.
    func write(prepared operation: PreparedOperation) throws {
        guard let positions = claimed(operation.kind, portfolio: operation.portfolio) else { return }
        try operation.withBytes { bytes in
            let mapped = ServerRecordBytes.read(bytes)
            switch mapped.tag {
            case .trade, .transaction: try route(mapped.tag, object: mapped.object, valueId: mapped.valueId, to: positions)
            case .refused: for i in positions { targets[i].tally.refused.append(mapped.refusal ?? "") }
            case .incomplete: for i in positions { targets[i].tally.incomplete += 1 }
            case .movement: for i in positions { targets[i].tally.movements += 1 }
            }
        }
    }

    /// Adds a record's object and value id to the targets at `positions`, handing over a batch as
    /// it fills.
    private func route(_ kind: ServerRecordBytes.Tag, object: UnsafeRawBufferPointer, valueId: String?, to positions: [Int]) throws {
        for i in positions {
            if kind == .trade {
                targets[i].trades.append(object: object, valueId: valueId)
                if targets[i].trades.count >= batchSize { try flush(i, \.trades, as: PushBatch.Records.trades) }
            } else {
                targets[i].transactions.append(object: object, valueId: valueId)
                if targets[i].transactions.count >= batchSize { try flush(i, \.transactions, as: PushBatch.Records.transactions) }
            }
        }
    }

    /// Hands over what waits for target `i` of one kind (a full batch, or the rest at the end).
    private func flush(_ i: Int, _ kind: WritableKeyPath<Target, EncodedRecords>, as records: (EncodedRecords) -> PushBatch.Records) throws {
        guard !targets[i][keyPath: kind].isEmpty else { return }
        let batch = targets[i][keyPath: kind]
        targets[i][keyPath: kind] = EncodedRecords()
        guard emit(PushBatch(portfolio: targets[i].name, records: records(batch))) else { throw Stopped() }
    }

    func write(_ skipped: SkippedRow) throws {}
    func write(_ rejected: RejectedRow) throws { self.rejected?(rejected) }

    func finish(_ report: ConversionReport) throws {
        for i in targets.indices {
            try flush(i, \.trades, as: PushBatch.Records.trades)
            try flush(i, \.transactions, as: PushBatch.Records.transactions)
        }
    }
}
