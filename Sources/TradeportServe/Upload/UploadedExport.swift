import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

/// A DSX export uploaded to `…/uploadFile`, read by tradeport's own readers and mapped to the
/// server's records as `push` maps them.
struct UploadedExport {
    var trades: [TradeRecord] = []
    var transactions: [TransactionRecord] = []
    /// Rows not stored and why: conversion rejects, and operations the server's model cannot hold.
    var problems: [String] = []

    /// Reads `bytes` as the export of `resource` (`trades` or `transactions`).
    init(bytes: [UInt8], resource: String, filename: String?) throws {
        let formatId = resource == "trades" ? "dsx-trades" : "dsx-transactions"
        guard let reader = FormatRegistry.builtIn.reader(id: formatId) else { throw ServeError("no \(formatId) reader") }
        // Read from memory: nothing of the upload stays once it is answered.
        let name = (filename.map { ($0 as NSString).lastPathComponent }).flatMap { $0.isEmpty ? nil : $0 } ?? "upload.csv"
        let input = SourceInput(bytes: bytes, name: name)
        let (document, _) = try Inputs.document([PreparedInput(input: input, reader: reader)], options: ConversionOptions(portfolio: "upload"))
        for r in document.rejected {
            problems.append("row \(r.source.row): " + r.errors.map(\.message).joined(separator: "; "))
        }
        for portfolio in document.portfolios {
            // Transactions not complete were skipped by the conversion already.
            let records = BalancesMapping.records(of: portfolio)
            // Text with a NUL character is not stored (as the API refuses it in a JSON body).
            func storable(_ record: some StoredRecord) -> Bool {
                guard record.bindings.contains(where: { if case .text(let t) = $0 { t.utf8.contains(0) } else { false } }) else { return true }
                problems.append("\(type(of: record).noun) \(record.valueId.map { "'\($0.oneLineForMessage)'" } ?? ""): \(BalancesAPI.nulRefusal)")
                return false
            }
            trades += records.trades.filter(storable)
            transactions += records.transactions.filter(storable)
            problems += records.refusals.map { "row \($0.source.row): \($0.reason)" }
        }
    }
}

extension String {
    /// The text with NUL characters shown as `\\u0000`, for a message.
    var oneLineForMessage: String { replacingOccurrences(of: "\u{0}", with: "\\u0000") }
}
