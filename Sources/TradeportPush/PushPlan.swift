import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

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

        /// The portfolios an operation of the conversion's `portfolio` goes to (none: a
        /// sub-account no portfolio of the manifest takes).
        func names(for portfolio: String) -> [String] {
            switch self {
            case .same: return [portfolio]
            case .all(let all): return all
            case .byAccount(let accounts): return accounts[portfolio] ?? []
            }
        }
    }

    struct Job {
        var inputs: [PreparedInput]
        var options: ConversionOptions
        var route: Route
        /// The inputs' paths, for what is not pushed.
        var paths: String

        /// What stopped the job's conversion part-way, with what it counted before.
        func failure(_ error: any Error, partial: PushConversion) -> PushPlanError {
            var failure: PushPlanError
            switch error {
            case is PushRouter.Stopped: failure = PushPlanError(.stopped, "stopped")
            case let e as InputError: failure = PushPlanError(e)
            default: failure = PushPlanError(.input, "cannot read \(paths): \(error)")
            }
            failure.partial = partial
            return failure
        }
    }

    var jobs: [Job] = []
    /// The server portfolios named before converting, in order (a manifest's entries): each
    /// exists after a push, even with nothing to send.
    public private(set) var portfolios: [String] = []

    /// The format of each input, in order (`reader.id`).
    public var formats: [String] { jobs.flatMap { $0.inputs.map(\.reader.id) } }

    /// Inputs given as on `convert`'s command line.
    public static func fromFiles(
        _ files: [String], format: String?, portfolio: String, splitAccounts: Bool, timezone: String?,
        parameters: [String] = [], registry: FormatRegistry = .builtIn
    ) throws(PushPlanError) -> PushPlan {
        var plan = PushPlan()
        let (read, prepared) = try prepare(
            files.map { InputRequest(path: $0, format: format) }, timezone: timezone, parameters: parameters, registry: registry)
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
            var parameters: [String: String]?
            var split: Bool
        }
        var jobOf: [Key: Int] = [:]
        for entry in manifest.portfolios {
            let key = Key(inputs: entry.inputs, timezone: entry.timezone, parameters: entry.parameters, split: entry.account != nil)
            let index: Int
            if let known = jobOf[key] {
                index = known
            } else {
                let (read, prepared) = try prepare(
                    entry.inputs.map { InputRequest(path: $0.path, format: $0.format) },
                    timezone: entry.timezone, parameters: (entry.parameters ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" },
                    registry: registry)
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
    private static func prepare(
        _ inputs: [InputRequest], timezone: String?, parameters: [String], registry: FormatRegistry
    ) throws(PushPlanError) -> (ReadOptions, [PreparedInput]) {
        do {
            var read = try Inputs.readOptions(timezone: timezone)
            let prepared = try Inputs.prepare(inputs, registry: registry)
            read.parameters = try Inputs.parameters(parameters, for: prepared)
            return (read, prepared)
        } catch {
            throw PushPlanError(error)
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
                throw job.failure(error, partial: conversion)
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

    /// Runs the plan's conversions, handing `body` each operation with the portfolios it goes to
    /// (a manifest's routes applied): what a push target that takes canonical operations reads.
    /// `rejected` is told of every row a conversion rejects.
    public func operations(
        rejected: ((RejectedRow) -> Void)? = nil, _ body: @escaping (PortfolioOperation, [String]) throws -> Void
    ) throws(PushPlanError) -> PushConversion {
        var conversion = PushConversion()
        for job in jobs {
            let sink = OperationRouter(route: job.route, rejected: rejected, body: body)
            do {
                conversion.reports.append(try Inputs.convert(job.inputs, options: job.options, into: sink))
            } catch {
                throw job.failure(error, partial: conversion)
            }
            for name in sink.names where !conversion.portfolios.contains(name) { conversion.portfolios.append(name) }
            for (account, count) in sink.unclaimed.sorted(by: { $0.key < $1.key }) {
                conversion.notLoaded.append(
                    "not pushed: sub-account '\(account)' of \(job.paths) (\(Wording.count(count, "operation"))) is in no portfolio of the manifest")
            }
        }
        let named = portfolios
        conversion.portfolios = named + conversion.portfolios.filter { !named.contains($0) }
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
        if let unread { throw PushPlanError(.internalFailure, "a record written for the server does not read back: \(unread)") }
        let loads = conversion.portfolios.map { name in
            PortfolioLoad(
                name: name, trades: trades[name] ?? [], transactions: transactions[name] ?? [],
                tally: conversion.tallies[name] ?? PortfolioTally())
        }
        return (loads, conversion)
    }
}

/// Hands each operation of a conversion on with the portfolios the plan's route gives it.
private final class OperationRouter: ConversionSink {
    private let route: PushPlan.Route
    private let rejected: ((RejectedRow) -> Void)?
    private let body: (PortfolioOperation, [String]) throws -> Void
    private(set) var names: [String] = []
    private(set) var unclaimed: [String: Int] = [:]

    init(route: PushPlan.Route, rejected: ((RejectedRow) -> Void)?, body: @escaping (PortfolioOperation, [String]) throws -> Void) {
        self.route = route
        self.rejected = rejected
        self.body = body
    }

    func write(_ operation: PortfolioOperation, portfolio: String) throws {
        let targets = route.names(for: portfolio)
        if targets.isEmpty {
            unclaimed[portfolio, default: 0] += 1
            return
        }
        for name in targets where !names.contains(name) { names.append(name) }
        try body(operation, targets)
    }

    func write(_ skipped: SkippedRow) throws {}
    func write(_ rejected: RejectedRow) throws { self.rejected?(rejected) }
    func finish(_ report: ConversionReport) throws {}
}
