import TradeportCore

/// Writes JSON Lines as operations arrive: each operation as one object with `kind` and
/// `portfolio`, then the skipped rows, the rejected rows (both held on disk meanwhile), the
/// warnings, and a last `summary` line.
public final class JSONLinesSink: PreparedOperationSink {
    private let output: OutputFile
    private let skippedLines: Spool
    private let rejectedLines: Spool

    public init(output: OutputFile) throws {
        self.output = output
        skippedLines = Spool()
        rejectedLines = Spool()
    }

    public func write(_ operation: PortfolioOperation, portfolio: String) throws {
        try output.append { CanonicalJSON.appendLine(operation, portfolio: portfolio, to: &$0) }
    }

    /// Lines a reader made on its threads (`CanonicalJSON.appendLine`, as `write` makes them).
    public var preparedForm: PreparedForm { .jsonLine }

    public func write(prepared operation: PreparedOperation) throws {
        try operation.withBytes { try output.write($0) }
    }

    public func write(_ skipped: SkippedRow) throws {
        skippedLines.append { out in
            CanonicalJSON.appendRaw("{\"kind\":\"skipped\",", to: &out)
            CanonicalJSON.appendSkippedFields(skipped, to: &out)
            CanonicalJSON.appendRaw("}\n", to: &out)
        }
    }

    public func write(_ rejected: RejectedRow) throws {
        rejectedLines.append { out in
            CanonicalJSON.appendRaw("{\"kind\":\"rejected\",", to: &out)
            CanonicalJSON.appendRejectedFields(rejected, to: &out)
            CanonicalJSON.appendRaw("}\n", to: &out)
        }
    }

    public func finish(_ report: ConversionReport) throws {
        try output.flush()
        try skippedLines.copy(to: output)
        try rejectedLines.copy(to: output)
        try output.append { out in
            for warning in report.warnings {
                CanonicalJSON.appendRaw("{\"kind\":\"warning\",", to: &out)
                CanonicalJSON.appendWarningFields(warning, to: &out)
                CanonicalJSON.appendRaw("}\n", to: &out)
            }
            for check in report.reconciliation {
                CanonicalJSON.appendRaw("{\"kind\":\"reconciliation\",", to: &out)
                CanonicalJSON.appendBalanceCheckFields(check, to: &out)
                CanonicalJSON.appendRaw("}\n", to: &out)
            }
            CanonicalJSON.appendRaw("{\"kind\":\"summary\",\"tradeport\":1,\"sources\":[", to: &out)
            for (i, source) in report.sources.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                CanonicalJSON.appendSourceSummary(source, to: &out)
            }
            CanonicalJSON.appendRaw("]}\n", to: &out)
        }
        try output.flush()
    }
}

/// The canonical model as JSON Lines (`--to jsonl`): streamed, one object a line.
public struct JSONLinesWriter: FormatWriter {
    public let id = "jsonl"
    public let summary = "JSON Lines: one object per operation in input order, then skipped, rejected, warnings and a summary line"
    public let fileExtension = "jsonl"
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink { try JSONLinesSink(output: output) }
}
