import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

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
