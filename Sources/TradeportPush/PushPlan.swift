import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

/// Why a push cannot start, or why its conversion stopped: an input, a manifest or an option is
/// wrong.
public struct PushPlanError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// For a conversion that stopped part-way: what it counted until then.
    public var partial: PushConversion?
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What `push` will load, its inputs opened and given their readers but not yet read: per
/// conversion, its inputs and the server portfolios its operations go to. Inputs are read as
/// `convert` reads them (exports, or tradeport's own canonical JSON, whose portfolios are kept).
///
/// `run` converts and hands over the server's records in batches as the conversion makes them,
/// so that they can be sent while the rest is still being read: memory holds a batch per
/// portfolio and what the conversion's deduplication needs, not the inputs' operations.
///
/// `@unchecked Sendable`: the opened inputs are read by one thread at a time (the plan is made on
/// one, then run on another).
public struct PushPlan: @unchecked Sendable {
    /// Where a conversion's operations go, by the portfolio the conversion put them in.
    enum Route {
        /// To the server portfolio of the same name.
        case same
        /// Every operation to each of these portfolios.
        case all([String])
        /// By sub-account: an account's operations to the portfolios that take it; the rest are
        /// reported as not pushed.
        case byAccount([String: [String]])
    }

    struct Job {
        var inputs: [PreparedInput]
        var options: ConversionOptions
        var route: Route
        /// The inputs' paths, for what is not pushed.
        var paths: String
    }

    var jobs: [Job] = []
    /// The server portfolios named before converting, in order (a manifest's entries): each
    /// exists after a push, even with nothing to send.
    public private(set) var portfolios: [String] = []

    /// Inputs given as on `convert`'s command line.
    public static func fromFiles(
        _ files: [String], format: String?, portfolio: String, splitAccounts: Bool, timezone: String?,
        registry: FormatRegistry = .builtIn
    ) throws(PushPlanError) -> PushPlan {
        var plan = PushPlan()
        let (read, prepared) = try prepare(files.map { InputRequest(path: $0, format: format) }, timezone: timezone, registry: registry)
        plan.jobs = [
            Job(
                inputs: prepared, options: ConversionOptions(portfolio: portfolio, splitAccounts: splitAccounts, read: read),
                route: .same, paths: files.joined(separator: ", "))
        ]
        // None named in advance: a canonical document keeps its own portfolios, whatever
        // --portfolio says (the CLI still reads --portfolio's ahead, when it exists).
        return plan
    }

    /// Inputs already opened and given their readers (an upload to `serve`, read from memory),
    /// all into the server portfolio `portfolio`.
    public static func fromInputs(_ inputs: [PreparedInput], portfolio: String, read: ReadOptions = ReadOptions()) -> PushPlan {
        var plan = PushPlan()
        plan.jobs = [
            Job(
                inputs: inputs, options: ConversionOptions(portfolio: portfolio, read: read), route: .same,
                paths: inputs.map(\.input.path).joined(separator: ", "))
        ]
        return plan
    }

    /// Inputs named by a manifest. Entries with the same inputs and zone are converted once.
    public static func fromManifest(_ manifest: PushManifest, registry: FormatRegistry = .builtIn) throws(PushPlanError) -> PushPlan {
        var plan = PushPlan()
        struct Key: Hashable {
            var inputs: [PushManifest.Input]
            var timezone: String?
            var split: Bool
        }
        var jobOf: [Key: Int] = [:]
        for entry in manifest.portfolios {
            let key = Key(inputs: entry.inputs, timezone: entry.timezone, split: entry.account != nil)
            let index: Int
            if let known = jobOf[key] {
                index = known
            } else {
                let (read, prepared) = try prepare(
                    entry.inputs.map { InputRequest(path: $0.path, format: $0.format) },
                    timezone: entry.timezone, registry: registry)
                let options = ConversionOptions(portfolio: entry.account == nil ? entry.name : "main", splitAccounts: entry.account != nil, read: read)
                index = plan.jobs.count
                plan.jobs.append(
                    Job(
                        inputs: prepared, options: options, route: entry.account == nil ? .all([]) : .byAccount([:]),
                        paths: entry.inputs.map(\.path).joined(separator: ", ")))
                jobOf[key] = index
            }
            switch plan.jobs[index].route {
            case .all(let names): plan.jobs[index].route = .all(names + [entry.name])
            case .byAccount(var accounts):
                accounts[entry.account!, default: []].append(entry.name)
                plan.jobs[index].route = .byAccount(accounts)
            case .same: break
            }
            plan.portfolios.append(entry.name)
        }
        return plan
    }

    /// Opens every input and gives it its reader: a problem here stops the push before anything is sent.
    private static func prepare(_ inputs: [InputRequest], timezone: String?, registry: FormatRegistry) throws(PushPlanError) -> (ReadOptions, [PreparedInput]) {
        do {
            return (try Inputs.readOptions(timezone: timezone), try Inputs.prepare(inputs, registry: registry))
        } catch {
            throw PushPlanError(error.description)
        }
    }

    /// Converts every input and hands the records over as they are made: per portfolio, batches
    /// of at most `batchSize` trades or transactions, in the inputs' order. `emit` answers false
    /// to stop the conversion. Throws when an input cannot be read to its end (what was handed
    /// over before stays handed over).
    /// When an input fails part-way, the error's `partial` holds what the conversion counted
    /// until then (the reports of the conversions done, the failing one's tallies).
    /// `rejected`, when given, is told of every row the conversion rejects (never sent), as it comes.
    public func run(
        batchSize: Int, rejected: ((RejectedRow) -> Void)? = nil, emit: @escaping (PushBatch) -> Bool
    ) throws(PushPlanError) -> PushConversion {
        var conversion = PushConversion()
        func count(_ router: PushRouter, paths: String) {
            for target in router.targets {
                if conversion.tallies[target.name] == nil { conversion.portfolios.append(target.name) }
                conversion.tallies[target.name, default: PortfolioTally()].add(target.tally)
            }
            for (account, count) in router.unclaimed {
                conversion.notLoaded.append(
                    "not pushed: sub-account '\(account)' of \(paths) (\(Wording.count(count.trades, "trade")), \(Wording.count(count.transactions, "transaction"))) is in no portfolio of the manifest"
                )
            }
        }
        for job in jobs {
            let router = PushRouter(route: job.route, batchSize: batchSize, rejected: rejected, emit: emit)
            let report: ConversionReport
            do {
                report = try Inputs.convert(job.inputs, options: job.options, into: router)
            } catch {
                count(router, paths: job.paths)
                var failure: PushPlanError
                switch error {
                case is PushRouter.Stopped: failure = PushPlanError("stopped")
                case let e as InputError: failure = PushPlanError(e.description)
                default: failure = PushPlanError("cannot read \(job.paths): \(error)")
                }
                failure.partial = conversion
                throw failure
            }
            conversion.reports.append(report)
            count(router, paths: job.paths)
        }
        // Those named before converting first, in their order; then those the inputs named.
        let named = portfolios
        conversion.portfolios = named + conversion.portfolios.filter { !named.contains($0) }.sorted()
        for name in named where conversion.tallies[name] == nil { conversion.tallies[name] = PortfolioTally() }
        conversion.notLoaded.sort()
        return conversion
    }

    /// Converts everything into memory: what a dry run prints. Each portfolio's records are in
    /// the inputs' order, trades and transactions apart.
    public func loads() throws(PushPlanError) -> (loads: [PortfolioLoad], conversion: PushConversion) {
        var trades: [String: [TradeRecord]] = [:]
        var transactions: [String: [TransactionRecord]] = [:]
        var unread: RecordError?
        let conversion = try run(batchSize: 1 << 16) { batch in
            do throws(RecordError) {
                switch batch.records {
                case .trades(let r): trades[batch.portfolio, default: []] += try r.records(TradeRecord.self)
                case .transactions(let r): transactions[batch.portfolio, default: []] += try r.records(TransactionRecord.self)
                }
                return true
            } catch {
                unread = error
                return false
            }
        }
        // Records tradeport wrote itself, read back as the server reads them: a failure is a bug.
        if let unread { throw PushPlanError("a record written for the server does not read back: \(unread)") }
        let loads = conversion.portfolios.map { name in
            PortfolioLoad(
                name: name, trades: trades[name] ?? [], transactions: transactions[name] ?? [],
                tally: conversion.tallies[name] ?? PortfolioTally())
        }
        return (loads, conversion)
    }
}

/// A batch of one portfolio's records, of one kind, as the conversion hands them over.
public struct PushBatch: Sendable {
    public enum Records: Sendable {
        case trades(EncodedRecords)
        case transactions(EncodedRecords)
    }

    public var portfolio: String
    public var records: Records

    public var count: Int {
        switch records {
        case .trades(let r): return r.count
        case .transactions(let r): return r.count
        }
    }
}

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

/// The end of a push's conversion: the reports, and per portfolio what was not handed over.
public struct PushConversion: Sendable {
    /// The conversions' reports, for the summary.
    public var reports: [ConversionReport] = []
    /// Every portfolio loaded: those named before converting, in order, then those the inputs named (sorted).
    public var portfolios: [String] = []
    public var tallies: [String: PortfolioTally] = [:]
    /// Operations the inputs hold that no portfolio of the manifest takes.
    public var notLoaded: [String] = []
    /// Rows the conversions rejected (never sent).
    public var rejectedRows: Int { reports.reduce(0) { $0 + $1.rejected } }
    /// Whether an operation of any portfolio cannot be sent.
    public var refusedAny: Bool { tallies.values.contains { !$0.refused.isEmpty } }
}

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
        let names: [String]
        switch route {
        case .same: names = [portfolio]
        case .all(let all): names = all
        case .byAccount(let accounts): names = accounts[portfolio] ?? []
        }
        let positions = names.map { name in
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

/// What a dry run would send to one portfolio.
public struct PlannedLoad: Sendable {
    public var load: PortfolioLoad
    public var trades: [TradeRecord]
    public var transactions: [TransactionRecord]
    /// Whether the server has the portfolio; nil when no server was asked.
    public var exists: Bool?

    /// What a dry run would send to each portfolio: everything, or, with a `reader` (a client
    /// logged in), only what the server lacks, reading and never writing.
    public static func planned(_ loads: [PortfolioLoad], reader: BalancesClient?) async throws -> [PlannedLoad] {
        var result: [PlannedLoad] = []
        for load in loads {
            var planned = PlannedLoad(load: load, trades: load.trades, transactions: load.transactions, exists: nil)
            if let reader {
                if let p = try await reader.portfolio(named: load.name) {
                    planned.exists = true
                    planned.trades = MissingRecords(load.trades, held: try await reader.valueIds(TradeRecord.self, portfolio: p.id)).missing
                    planned.transactions = MissingRecords(load.transactions, held: try await reader.valueIds(TransactionRecord.self, portfolio: p.id)).missing
                } else {
                    planned.exists = false
                }
            }
            result.append(planned)
        }
        return result
    }
}
