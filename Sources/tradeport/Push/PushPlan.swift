import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats
import TradeportPush

/// What `push` will load: per server portfolio, its operations mapped to the server's records,
/// and what the conversion of the inputs said along the way.
struct PushPlan {
    var loads: [PortfolioLoad] = []
    /// The conversions' reports, for the summary.
    var reports: [ConversionReport] = []
    /// Rows the conversions rejected (never sent).
    var rejectedRows: Int { reports.reduce(0) { $0 + $1.rejected } }
    /// Operations the inputs hold that no portfolio of the manifest takes.
    var notLoaded: [String] = []

    /// Inputs given as on `convert`'s command line.
    static func fromFiles(_ files: [String], format: String?, portfolio: String, splitAccounts: Bool, timezone: String?,
                          registry: FormatRegistry = .builtIn) throws -> PushPlan {
        var plan = PushPlan()
        let (document, report) = try collect(files.map { ($0, format) }, timezone: timezone, portfolio: portfolio,
                                             splitAccounts: splitAccounts, registry: registry)
        if let report { plan.reports.append(report) }
        plan.loads = document.portfolios.map(load)
        return plan
    }

    /// Inputs named by a manifest. Entries with the same inputs and zone are converted once.
    static func fromManifest(_ manifest: PushManifest, registry: FormatRegistry = .builtIn) throws -> PushPlan {
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
                let (d, report) = try collect(entry.inputs.map { ($0.path, $0.format) }, timezone: entry.timezone,
                                              portfolio: entry.account == nil ? entry.name : "main", splitAccounts: entry.account != nil,
                                              registry: registry)
                if let report { plan.reports.append(report) }
                converted[key] = d
                document = d
            }
            var portfolio = Portfolio(name: entry.name)
            for p in document.portfolios where entry.account == nil || p.name == entry.account {
                portfolio.trades += p.trades
                portfolio.transactions += p.transactions
            }
            if let account = entry.account { claimed[key, default: []].insert(account) }
            plan.loads.append(load(portfolio))
        }
        for (key, accounts) in claimed {
            let inputs = key.inputs.map(\.path).joined(separator: ", ")
            for p in converted[key]?.portfolios ?? [] where !accounts.contains(p.name) {
                plan.notLoaded.append("not pushed: sub-account '\(p.name)' of \(inputs) (\(SummaryText.plural(p.trades.count, "trade")), \(SummaryText.plural(p.transactions.count, "transaction"))) is in no portfolio of the manifest")
            }
        }
        plan.notLoaded.sort()
        return plan
    }

    /// Converts exports (or reads canonical documents, `.json`) into portfolios.
    private static func collect(
        _ inputs: [(path: String, format: String?)], timezone: String?, portfolio: String, splitAccounts: Bool,
        registry: FormatRegistry
    ) throws -> (CanonicalDocument, ConversionReport?) {
        let read = try Inputs.readOptions(timezone: timezone)
        var documents: [CanonicalDocument] = []
        var sources: [(SourceInput, any FormatAdapter)] = []
        for (path, format) in inputs {
            if format == nil, path.lowercased().hasSuffix(".json") {
                documents.append(try readDocument(path))
                continue
            }
            let input = try Inputs.open(path)
            sources.append((input, try Inputs.adapter(for: input, named: format, registry: registry)))
        }
        var result = CanonicalDocument()
        var report: ConversionReport?
        if !sources.isEmpty {
            let collector = DocumentCollector()
            let conversion = Conversion(
                options: ConversionOptions(portfolio: portfolio, splitAccounts: splitAccounts, read: read), sink: collector)
            do {
                for (input, adapter) in sources { try conversion.add(input, adapter: adapter) }
                report = try conversion.finish()
            } catch let e as InputError {
                throw CommandFailure(message: "cannot read \(e)")
            }
            result = collector.document
        }
        for d in documents {
            for p in d.portfolios {
                if let i = result.portfolios.firstIndex(where: { $0.name == p.name }) {
                    result.portfolios[i].trades += p.trades
                    result.portfolios[i].transactions += p.transactions
                } else {
                    result.portfolios.append(p)
                }
            }
        }
        return (result, report)
    }

    private static func readDocument(_ path: String) throws -> CanonicalDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "cannot read \(path): no such file")
        }
        do {
            return try JSONDecoder().decode(CanonicalDocument.self, from: data)
        } catch {
            throw CommandFailure(message: "\(path): not a canonical JSON document tradeport convert wrote: \(error)")
        }
    }

    /// A portfolio's operations as the server's records; what cannot be mapped is refused.
    static func load(_ portfolio: Portfolio) -> PortfolioLoad {
        let records = BalancesMapping.records(of: portfolio)
        var load = PortfolioLoad(name: portfolio.name, trades: records.trades, transactions: records.transactions,
                                 refused: records.refusals.map(\.description))
        load.incomplete = records.incomplete
        return load
    }
}
