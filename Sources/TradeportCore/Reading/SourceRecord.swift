/// What a reader makes of one data row: exactly one of these per row.
public enum SourceRecord: Sendable {
    case operation(PortfolioOperation)
    /// An operation whose source names its portfolio (a spec's `portfolio` mapping): it goes
    /// there, whatever `--portfolio` and `--split-accounts` say for the rest.
    case placed(PortfolioOperation, portfolio: String)
    /// An operation from a row already handed on as one (a dividend row's withholding tax): not a
    /// row of its own, counted as `extra`; placed in `portfolio` when the source names one.
    case additional(PortfolioOperation, portfolio: String?)
    /// A row read into an operation another record carries (a leg of a trade spread over several
    /// rows): counted as `merged`.
    case merged(SourceLocation)
    case skipped(SkippedRow)
    case rejected(RejectedRow)
    /// A balance the source prints (an opening and a closing balance of one asset): not a row of
    /// its own (the row that prints it is also handed on, as a skip), but what the operations read
    /// are checked against. Only from an reader whose `printsBalances` is true.
    case statement(StatedBalance)
    /// Something the reader found true of the whole source that a user should look at (a currency
    /// a report left unprinted and the reader inferred): not a row; it joins the conversion's
    /// warnings.
    case warning(ConversionWarning)
}
