public indirect enum ValueType: Sendable, Equatable {
    case text
    /// Non-empty, no spaces.
    case id
    case asset
    case decimal(DecimalCheck)
    /// A pattern of `yyyy MM M dd d HH H mm ss` and literal characters.
    case dateTime(String)
    case date(String)
    case time(String)
    /// Source text → canonical value, exact (or ignoring case).
    case map([ValueMapEntry], ignoreCase: Bool)
    /// Two asset codes in one column (`BTC/USD`, `btc-usd`): a value listed in `pairs` (exact
    /// text → `BASE/QUOTE`, for names like Kraken's legacy `XXBTZUSD`), or else split at one of
    /// these separators.
    /// `quotes`: codes a value without a separator may end with (`XXBTZEUR` = `XXBT` + `ZEUR`).
    case instrument(separators: [String], pairs: [ValueMapEntry], quotes: [String] = [])
}
