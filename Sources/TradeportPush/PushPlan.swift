import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

/// Why a push cannot start: an input, a manifest or an option is wrong (nothing is sent).
public struct PushPlanError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What `push` will load: per server portfolio, its operations mapped to the server's records,
/// and what the conversion of the inputs said along the way. Inputs are read as `convert` reads
/// them (exports, or tradeport's own canonical JSON, whose portfolios are kept).
public struct PushPlan: Sendable {
    public var loads: [PortfolioLoad] = []
    /// The conversions' reports, for the summary.
    public var reports: [ConversionReport] = []
    /// Rows the conversions rejected (never sent).
    public var rejectedRows: Int { reports.reduce(0) { $0 + $1.rejected } }
    /// Operations the inputs hold that no portfolio of the manifest takes.
    public var notLoaded: [String] = []

    public init() {}

    /// Inputs given as on `convert`'s command line.
    public static func fromFiles(_ files: [String], format: String?, portfolio: String, splitAccounts: Bool, timezone: String?,
                                 registry: FormatRegistry = .builtIn) throws -> PushPlan {
        var plan = PushPlan()
        let (document, report) = try collect(files.map { InputRequest(path: $0, format: format) }, timezone: timezone,
                                             portfolio: portfolio, splitAccounts: splitAccounts, registry: registry)
        plan.reports.append(report)
        plan.loads = document.portfolios.map(load)
        return plan
    }

    /// Inputs named by a manifest. Entries with the same inputs and zone are converted once.
    public static func fromManifest(_ manifest: PushManifest, registry: FormatRegistry = .builtIn) throws -> PushPlan {
        var plan = PushPlan()
        struct Key: Hashable {
            var inputs: [PushManifest.Input]
            var timezone: String?
            var split: Bool
        }
        var converted: [Key: CanonicalDocument] = [:]
        var claimed: [Key: Set<String>] = [:]
        for entry in manifest.portfolios {
            let key = Key(inputs: entry.inputs, timezone: entry.timezone, split: entry.account != nil)
            let document: CanonicalDocument
            if let done = converted[key] {
                document = done
            } else {
                let (d, report) = try collect(entry.inputs.map { InputRequest(path: $0.path, format: $0.format) }, timezone: entry.timezone,
                                              portfolio: entry.account == nil ? entry.name : "main", splitAccounts: entry.account != nil,
                                              registry: registry)
                plan.reports.append(report)
                converted[key] = d
                document = d
            }
            var portfolio = Portfolio(name: entry.name)
            for p in document.portfolios where entry.account == nil || p.name == entry.account {
                portfolio.trades += p.trades
                portfolio.transactions += p.transactions
                portfolio.movements += p.movements
            }
            if let account = entry.account { claimed[key, default: []].insert(account) }
            plan.loads.append(load(portfolio))
        }
        for (key, accounts) in claimed {
            let inputs = key.inputs.map(\.path).joined(separator: ", ")
            for p in converted[key]?.portfolios ?? [] where !accounts.contains(p.name) {
                plan.notLoaded.append("not pushed: sub-account '\(p.name)' of \(inputs) (\(Wording.count(p.trades.count, "trade")), \(Wording.count(p.transactions.count, "transaction"))) is in no portfolio of the manifest")
            }
        }
        plan.notLoaded.sort()
        return plan
    }

    /// Converts inputs into portfolios (the one library call every conversion goes through).
    private static func collect(
        _ inputs: [InputRequest], timezone: String?, portfolio: String, splitAccounts: Bool, registry: FormatRegistry
    ) throws -> (CanonicalDocument, ConversionReport) {
        let read: ReadOptions
        let prepared: [PreparedInput]
        do {
            read = try Converter.readOptions(timezone: timezone)
            prepared = try Converter.prepare(inputs, registry: registry)
        } catch {
            throw PushPlanError(error.message)
        }
        do {
            return try Converter.document(prepared, options: ConversionOptions(portfolio: portfolio, splitAccounts: splitAccounts, read: read))
        } catch let e as InputError {
            throw PushPlanError("cannot read \(e)")
        }
    }

    /// A portfolio's operations as the server's records; what cannot be mapped is refused.
    public static func load(_ portfolio: Portfolio) -> PortfolioLoad {
        let records = BalancesMapping.records(of: portfolio)
        var load = PortfolioLoad(name: portfolio.name, trades: records.trades, transactions: records.transactions,
                                 refused: records.refusals.map(\.description))
        load.incomplete = records.incomplete
        load.movements = records.movements
        return load
    }

    /// What a dry run would send to each portfolio: everything, or, with a `reader` (a client
    /// logged in), only what the server lacks, reading and never writing.
    public func planned(reader: BalancesClient?) async throws -> [PlannedLoad] {
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

/// What a dry run would send to one portfolio.
public struct PlannedLoad: Sendable {
    public var load: PortfolioLoad
    public var trades: [TradeRecord]
    public var transactions: [TransactionRecord]
    /// Whether the server has the portfolio; nil when no server was asked.
    public var exists: Bool?
}

