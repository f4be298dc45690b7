import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats
import TradeportPush

/// A DSX export uploaded to `…/uploadFile`, read the way `push` reads a file and the server reads
/// its batches: the conversion's records routed by push's plan (`PushPlan.run`), each batch read
/// back by the batch endpoint's parser (`records(inBatch:)`). One path from a file to stored
/// records, whether it comes by `push` or by an upload.
struct UploadedExport {
    var trades: [TradeRecord] = []
    var transactions: [TransactionRecord] = []
    /// Rows not stored and why: conversion rejects, and operations the server's model cannot hold.
    var problems: [String] = []

    /// Reads `bytes` as the export of `resource` (`trades` or `transactions`).
    init(bytes: [UInt8], resource: String, filename: String?) throws {
        let formatId = resource == "trades" ? "dsx-trades" : "dsx-transactions"
        guard let reader = FormatRegistry.builtIn.reader(id: formatId) else { throw ServeError(.unknownFormat, subject: formatId, "no \(formatId) reader") }
        // Read from memory: nothing of the upload stays once it is answered.
        let name = (filename.map { ($0 as NSString).lastPathComponent }).flatMap { $0.isEmpty ? nil : $0 } ?? "upload.csv"
        let plan = PushPlan.fromInputs([PreparedInput(input: SourceInput(bytes: bytes, name: name), reader: reader)], portfolio: "upload")
        var rejects: [String] = []
        var batches: [PushBatch] = []
        let conversion = try plan.run(
            batchSize: BalancesAPI.batchLimit,
            rejected: { row in
                rejects.append("row \(row.source.row): " + row.errors.map(\.message).joined(separator: "; "))
            }
        ) { batch in
            batches.append(batch)
            return true
        }
        problems = rejects
        // Text with a NUL character is not stored (as the API refuses it in a JSON body).
        func storable(_ record: some StoredRecord) -> Bool {
            guard record.bindings.contains(where: { if case .text(let t) = $0 { t.utf8.contains(0) } else { false } }) else { return true }
            problems.append("\(type(of: record).noun) \(record.valueId.map { "'\($0.oneLineForMessage)'" } ?? ""): \(BalancesAPI.nulRefusal)")
            return false
        }
        for batch in batches {
            switch batch.records {
            case .trades(let records): trades += try records.records(TradeRecord.self).filter(storable)
            case .transactions(let records): transactions += try records.records(TransactionRecord.self).filter(storable)
            }
        }
        // Transactions not complete were skipped by the conversion already.
        for name in conversion.portfolios { problems += conversion.tallies[name]?.refused ?? [] }
    }
}

extension String {
    /// The text with NUL characters shown as `\\u0000`, for a message.
    var oneLineForMessage: String { replacingOccurrences(of: "\u{0}", with: "\\u0000") }
}
