import TradeportCore

/// A complete writer: one line of text per operation (`2024-01-02T10:00:00Z main trade buy 0.5 BTC
/// at 42000 USD`), then a line of counts. Its sink takes model values; it knows nothing of readers.
public struct ExampleTextWriter: FormatWriter {
    public let id = "example-text"
    public let summary = "One line of text per operation"
    public let fileExtension = "txt"

    public init() {}

    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink {
        ExampleTextSink(output: output)
    }
}

final class ExampleTextSink: ConversionSink {
    let output: OutputFile

    init(output: OutputFile) { self.output = output }

    func write(_ operation: PortfolioOperation, portfolio: String) throws {
        var line = "\(operation.time) \(portfolio) \(operation.kind.rawValue)"
        switch operation {
        case .trade(let t): line += " \(t.side.rawValue) \(t.quantity) \(t.base) at \(t.price) \(t.quote)"
        case .transaction(let t): line += " \(t.type.rawValue) \(t.amount) \(t.asset)"
        case .movement(let m): line += " \(m.quantity) \(m.asset)"
        }
        try output.append { $0.append(utf8: line + "\n") }
    }

    func write(_ skipped: SkippedRow) throws {}

    func write(_ rejected: RejectedRow) throws {
        try output.append { $0.append(utf8: "rejected row \(rejected.source.row): \(rejected.errors.map(\.message).joined(separator: "; "))\n") }
    }

    func finish(_ report: ConversionReport) throws {
        try output.append { $0.append(utf8: "\(report.rows) rows, \(report.operations) operations\n") }
        try output.flush()
    }
}
