import Foundation
import TradeportCore

/// Writes the body of Ghostfolio's import API (`POST /api/v1/import`; `--to ghostfolio`):
/// `activities` (BUY, SELL, DIVIDEND, FEE, INTEREST) as `GhostfolioActivities` makes them,
/// `accounts`, one per portfolio, with a UUID made from the portfolio's name so that every run
/// names the same account, and `assetProfiles`, the custom profiles the activities name. Nothing
/// else is in the body: the API refuses members its DTO does not name.
/// `schema/ghostfolio-import.schema.json` holds what the DTO accepts.
///
/// A file imported twice duplicates nothing: every activity carries `tradeport <operation id>` as
/// its comment and a symbol Ghostfolio keeps as sent (`GhostfolioActivities`).
public final class GhostfolioSink: ConversionSink, WriterNotes {
    private let output: OutputFile
    private var first = true
    private var accountIds: [String: String] = [:]
    private var mapping: GhostfolioActivities
    public private(set) var notes: [String] = []

    public init(output: OutputFile, options: WriteOptions) throws {
        self.output = output
        mapping = GhostfolioActivities(options: options)
        try output.append { CanonicalJSON.appendRaw("{\n  \"activities\": [", to: &$0) }
    }

    private func accountId(_ portfolio: String) -> String {
        if let id = accountIds[portfolio] { return id }
        let id = GhostfolioActivities.accountId(portfolio)
        accountIds[portfolio] = id
        return id
    }

    public func write(_ operation: PortfolioOperation, portfolio: String) throws {
        let activities = mapping.activities(operation, account: accountId(portfolio))
        guard !activities.isEmpty else { return }
        try output.append { out in
            for activity in activities {
                CanonicalJSON.appendRaw(first ? "\n    " : ",\n    ", to: &out)
                activity.appendJSON(to: &out)
                first = false
            }
        }
    }

    public func write(_ skipped: SkippedRow) throws {}
    public func write(_ rejected: RejectedRow) throws {}

    public func finish(_ report: ConversionReport) throws {
        // Every portfolio of the conversion has an account, with its activities or without.
        for p in report.portfolios { _ = accountId(p) }
        try output.append { out in
            CanonicalJSON.appendRaw(first ? "],\n  \"accounts\": [" : "\n  ],\n  \"accounts\": [", to: &out)
            for (i, name) in accountIds.keys.sorted().enumerated() {
                // The currency most of its activities are in (the first by name among equals),
                // and the portfolio's balance in it.
                let id = accountIds[name]!
                let currency =
                    GhostfolioActivities.mostUsed(mapping.currencies[id] ?? [:])
                    ?? report.balances.first { $0.portfolio == name && GhostfolioActivities.isCurrencyCode($0.asset) }?.asset.description ?? "USD"
                let balance = report.balances.first { $0.portfolio == name && $0.asset.description == currency }?.amount ?? .zero
                CanonicalJSON.appendRaw(i == 0 ? "\n    {\"balance\": " : ",\n    {\"balance\": ", to: &out)
                balance.appendText(to: &out)
                CanonicalJSON.appendRaw(", \"comment\": ", to: &out)
                CanonicalJSON.appendString(
                    TargetText.oneLine("tradeport portfolio \(name): its balance in \(currency) as the operations read give it"), to: &out)
                CanonicalJSON.appendRaw(", \"currency\": ", to: &out)
                CanonicalJSON.appendString(currency, to: &out)
                CanonicalJSON.appendRaw(", \"id\": ", to: &out)
                CanonicalJSON.appendString(id, to: &out)
                CanonicalJSON.appendRaw(", \"name\": ", to: &out)
                CanonicalJSON.appendString(TargetText.oneLine(name), to: &out)
                CanonicalJSON.appendRaw(", \"platformId\": null}", to: &out)
            }
            CanonicalJSON.appendRaw(accountIds.isEmpty ? "],\n  \"assetProfiles\": [" : "\n  ],\n  \"assetProfiles\": [", to: &out)
            let profiles = mapping.profiles.values.sorted { $0.symbol < $1.symbol }
            for (i, profile) in profiles.enumerated() {
                CanonicalJSON.appendRaw(i == 0 ? "\n    " : ",\n    ", to: &out)
                profile.appendJSON(to: &out)
            }
            CanonicalJSON.appendRaw(profiles.isEmpty ? "]\n}\n" : "\n  ]\n}\n", to: &out)
        }
        try output.flush()
        notes = mapping.notes
    }
}

/// Ghostfolio's import body (`--to ghostfolio`).
public struct GhostfolioWriter: FormatWriter {
    public let id = "ghostfolio"
    public let summary =
        "the body of Ghostfolio's import API: activities (BUY, SELL, DIVIDEND, FEE, INTEREST), an account per portfolio and the custom profiles they name (--symbols maps securities); what it cannot hold is counted"
    public let fileExtension = "json"
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink { try GhostfolioSink(output: output, options: options) }
}
