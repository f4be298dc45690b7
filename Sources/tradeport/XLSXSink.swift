import Foundation
import TradeportCore
import TradeportXLSX

/// Writes operations as tradeport's own XLSX layout (`tradeport-xlsx`): the same columns as
/// `tradeport-csv`, with real number cells and dates as dates, on a sheet named `operations`.
final class XLSXSink: ConversionSink {
    private let output: OutputFile
    private let writer: XLSXSheetWriter
    private var operations = 0
    /// A sheet holds 1,048,576 rows (Excel's and LibreOffice's limit): the header and this many operations.
    static let maxOperations = 1_048_575

    init(output: OutputFile) throws {
        self.output = output
        writer = try XLSXSheetWriter(sheetName: "operations")
        writer.addRow(CSVSink.columns.map { .text($0) })
    }

    private static func dateTime(_ t: Timestamp) -> XLSXOutputCell {
        let s = t.secondsSinceEpoch
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let rest = Int(s - days * 86_400)
        let date = CalendarDate(daysSinceEpoch: days)
        return .dateTime(year: date.year, month: date.month, day: date.day, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
    }

    func write(_ operation: TradeportCore.Operation, portfolio: String) throws {
        operations += 1
        guard operations <= Self.maxOperations else {
            throw CommandFailure(message: "an XLSX sheet holds at most \(Self.maxOperations) operations (1,048,576 rows with the header), and this conversion has more: write --to csv or --to jsonl, or convert fewer inputs at a time")
        }
        var cells = [XLSXOutputCell](repeating: .empty, count: CSVSink.columns.count)
        func set(_ name: String, _ cell: XLSXOutputCell?) {
            if let cell, let i = CSVSink.columns.firstIndex(of: name) { cells[i] = cell }
        }
        func text(_ s: String?) -> XLSXOutputCell? { s.map { .text($0) } }
        func number(_ d: ExactDecimal?) -> XLSXOutputCell? { d.map { .number($0.description) } }
        set("portfolio", .text(portfolio))
        switch operation {
        case .trade(let t):
            set("kind", .text("trade")); set("id", text(t.id)); set("externalId", text(t.externalId))
            set("time", Self.dateTime(t.time)); set("side", .text(t.side.rawValue))
            set("base", .text(t.base.text)); set("quote", .text(t.quote.text))
            set("quantity", number(t.quantity)); set("price", number(t.price)); set("amount", number(t.amount))
            set("accruedInterest", number(t.accruedInterest))
            for fee in t.fees {
                set("fee.\(fee.kind.rawValue)", number(fee.amount))
                set("fee.\(fee.kind.rawValue).currency", .text(fee.currency.text))
            }
            set("isin", text(t.isin)); set("name", text(t.name)); set("venue", text(t.venue))
            set("settlementDate", t.settlementDate.map { XLSXOutputCell.date(year: $0.year, month: $0.month, day: $0.day) })
            set("account", text(t.account)); set("orderId", text(t.orderId))
        case .transaction(let t):
            set("kind", .text("transaction")); set("id", text(t.id)); set("externalId", text(t.externalId))
            set("time", Self.dateTime(t.time)); set("type", .text(t.type.rawValue)); set("asset", .text(t.asset.text))
            set("amount", number(t.amount)); set("fee", number(t.fee?.amount)); set("feeCurrency", text(t.fee?.currency.text))
            set("status", .text(t.status.rawValue)); set("security", text(t.security)); set("note", text(t.note))
            set("account", text(t.account)); set("counterparty", text(t.counterparty)); set("txHash", text(t.txHash))
            set("address", text(t.address))
        }
        writer.addRow(cells)
    }

    func write(_ skipped: SkippedRow) throws {}
    func write(_ rejected: RejectedRow) throws {}

    func finish(_ report: ConversionReport) throws {
        let path = NSTemporaryDirectory() + "tradeport-xlsx-" + UUID().uuidString + ".xlsx"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try writer.finish(writingTo: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.withUnsafeBytes { try output.write($0) }
        try output.flush()
    }
}
