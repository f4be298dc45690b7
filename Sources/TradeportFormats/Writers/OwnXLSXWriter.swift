import Foundation
import TradeportCore
import TradeportXLSX

/// Writes operations as tradeport's own XLSX layout (`tradeport-xlsx`): the columns of
/// `OperationColumns`, with real number cells and dates as dates, on a sheet named `operations`.
public final class XLSXSink: ConversionSink {
    private let output: OutputFile
    private let writer: XLSXSheetWriter
    /// A decimal's text, reused from operation to operation.
    private var digits = OutputBuffer(capacity: 64)

    public init(output: OutputFile) throws {
        self.output = output
        writer = try XLSXSheetWriter(sheetName: "operations")
        try writer.addRow(OperationColumns.names.map { .text($0) })
    }

    public func write(_ operation: PortfolioOperation, portfolio: String) throws {
        do {
            try writer.beginRow()
        } catch let e as XLSXWriteError {
            throw OutputError(
                .beyondTarget, path: output.path,
                message:
                    "\(e.message) (a header and \(XLSXSheetWriter.maxRows - 1) operations), and this conversion has more: write --to csv or --to jsonl, or convert fewer inputs at a time"
            )
        }
        OperationColumns.forEachField(of: operation, portfolio: portfolio) { column, value in
            switch value {
            case .text(let text): writer.text(column, text)
            case .decimal(let d):
                digits.removeAll()
                d.appendText(to: &digits)
                writer.number(column, digits.bytes)
            case .time(let t) where t.nanoseconds != 0:
                // A date cell (days as a binary fraction) holds whole seconds exactly, not a
                // fraction of one: such a time goes as its text, which reads back exactly.
                writer.text(column, t.description)
            case .time(let t):
                let (days, second) = t.daysAndSecondOfDay
                writer.dateTime(column, daysSince1970: days, secondOfDay: second)
            case .date(let d): writer.date(column, daysSince1970: d.daysSinceEpoch)
            }
        }
        try writer.endRow()
    }

    public func write(_ skipped: SkippedRow) throws {}
    public func write(_ rejected: RejectedRow) throws {}

    public func finish(_ report: ConversionReport) throws {
        let path = NSTemporaryDirectory() + "tradeport-xlsx-" + UUID().uuidString + ".xlsx"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try writer.finish(writingTo: path)
        // Copied in chunks: the workbook is never held whole in memory.
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? file.close() }
        while let chunk = try file.read(upToCount: 1 << 20), !chunk.isEmpty {
            try chunk.withUnsafeBytes { try output.write($0) }
        }
        try output.flush()
    }
}

/// tradeport's own XLSX (`--to xlsx`), read back as `tradeport-xlsx`.
public struct OwnXLSXWriter: FormatWriter {
    public let id = "xlsx"
    public let summary = "tradeport's own XLSX: the CSV's columns on a sheet 'operations', numbers and dates as such (read back as tradeport-xlsx)"
    public let fileExtension = "xlsx"
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink { try XLSXSink(output: output) }
}
