import TradeportCore

extension FormatRegistry {
    /// Every format built into tradeport: the specs of `formats/` (compiled in at build time) and
    /// the code adapters listed in `FormatCatalog.codeAdapters`, the one place a code format is named.
    public static var builtIn: FormatRegistry { FormatCatalog.builtIn.registry }
}
