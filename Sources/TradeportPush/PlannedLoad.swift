import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

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
