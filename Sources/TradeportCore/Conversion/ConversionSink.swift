/// Consumes a conversion's output as it is made (pandoc's writers): operations in input order,
/// skips and rejects as they come, then the report. A writer's sink implements these four; one
/// that can take operations prepared on the reader's threads adopts `PreparedOperationSink` too.
public protocol ConversionSink: AnyObject {
    /// An operation, its id set, and the portfolio it goes to.
    func write(_ operation: PortfolioOperation, portfolio: String) throws
    /// A row skipped, with the reason.
    func write(_ skipped: SkippedRow) throws
    /// A row rejected, with its errors.
    func write(_ rejected: RejectedRow) throws
    /// The end: the counts, the warnings and the balances. Called once, after everything else.
    func finish(_ report: ConversionReport) throws
}
