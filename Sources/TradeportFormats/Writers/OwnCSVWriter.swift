import TradeportCore
import TradeportXLSX

/// Writes operations as tradeport's own CSV layout (`tradeport-csv`): a header row of canonical
/// field names, then one row per operation as it arrives, for people who keep or fix their
/// history in a spreadsheet. Skipped and rejected rows and warnings are not operations: they stay
/// in the summary on standard error.
public final class CSVSink: ConversionSink {
    /// The columns, in order (`OperationColumns.names`).
    public static var columns: [String] { OperationColumns.names }

    private let output: OutputFile

    public init(output: OutputFile) throws {
        self.output = output
        try output.append { out in
            for (i, name) in Self.columns.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendField(name, to: &out)
            }
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// A field, quoted when it holds a comma, a quote, a line break or leading/trailing space.
    static func appendField(_ text: String, to out: inout OutputBuffer) {
        var t = text
        t.withUTF8 { bytes in
            let needsQuotes =
                bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
                || bytes.first == 0x20 || bytes.last == 0x20
            guard needsQuotes else {
                out.append(UnsafeRawBufferPointer(bytes))
                return
            }
            out.append(0x22)
            for b in bytes {
                if b == 0x22 { out.append(0x22) }
                out.append(b)
            }
            out.append(0x22)
        }
    }

    public func write(_ operation: PortfolioOperation, portfolio: String) throws {
        try output.append { out in
            // Every column but the first is preceded by a comma, written or empty.
            var next = 0
            func advance(to column: Int) {
                while next < column {
                    next += 1
                    out.append(UInt8(ascii: ","))
                }
            }
            OperationColumns.forEachField(of: operation, portfolio: portfolio) { column, value in
                advance(to: column)
                switch value {
                // A text a spreadsheet would run is quoted (`SpreadsheetText`); it reads back as it was.
                case .text(let text): Self.appendField(SpreadsheetText.guardedForReadingBack(OOXMLText.escapedNUL(text)), to: &out)
                // Digits, '-', '.', ':', 'T' and 'Z' never need quotes.
                case .decimal(let d): d.appendText(to: &out)
                case .time(let t): t.appendRFC3339(to: &out)
                case .date(let d): d.appendISO(to: &out)
                }
            }
            advance(to: OperationColumns.names.count - 1)
            out.append(UInt8(ascii: "\n"))
        }
    }

    public func write(_ skipped: SkippedRow) throws {}
    public func write(_ rejected: RejectedRow) throws {}

    public func finish(_ report: ConversionReport) throws {
        try output.flush()
    }
}

/// tradeport's own CSV (`--to csv`), read back as `tradeport-csv`.
public struct OwnCSVWriter: FormatWriter {
    public let id = "csv"
    public let summary = "tradeport's own CSV: a row per operation under canonical field names (read back as tradeport-csv)"
    public let fileExtension = "csv"
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink { try CSVSink(output: output) }
}
