import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

/// A DSX export uploaded to `…/uploadFile`, read by tradeport's own adapters and mapped to the
/// server's records as `push` maps them.
struct UploadedExport {
    var trades: [TradeRecord] = []
    var transactions: [TransactionRecord] = []
    /// Rows not stored and why: conversion rejects, and operations the server's model cannot hold.
    var problems: [String] = []

    /// Reads `bytes` as the export of `resource` (`trades` or `transactions`).
    init(bytes: ArraySlice<UInt8>, resource: String, filename: String?) throws {
        let formatId = resource == "trades" ? "dsx-trades" : "dsx-transactions"
        guard let adapter = FormatRegistry.builtIn.adapter(id: formatId) else { throw ServeError("no \(formatId) adapter") }
        // Read from memory: nothing of the upload stays once it is answered.
        let name = (filename.map { ($0 as NSString).lastPathComponent }).flatMap { $0.isEmpty ? nil : $0 } ?? "upload.csv"
        let input = SourceInput(bytes: Array(bytes), name: name)
        let (document, _) = try Converter.document([PreparedInput(input: input, reader: adapter)], options: ConversionOptions(portfolio: "upload"))
        for r in document.rejected {
            problems.append("row \(r.source.row): " + r.errors.map(\.message).joined(separator: "; "))
        }
        for portfolio in document.portfolios {
            // Transactions not complete were skipped by the conversion already.
            let records = BalancesMapping.records(of: portfolio)
            trades += records.trades
            transactions += records.transactions
            problems += records.refusals.map { "row \($0.source.row): \($0.reason)" }
        }
    }
}
