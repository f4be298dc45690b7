import TradeportCore

extension FormatRegistry {
    /// Every format tradeport knows: the one place a format is named. A new adapter is one line here.
    public static let builtIn = FormatRegistry([
        DSXTradesAdapter(),
        DSXTransactionsAdapter(),
        TinkoffReportAdapter(),
    ])
}
