import TradeportCore

extension FormatRegistry {
    /// Every format built into tradeport: the specs of `formats/` (compiled in at build time) and
    /// the code readers listed in `FormatCatalog.codeReaders`, the one place a code format is named.
    public static var builtIn: FormatRegistry { FormatCatalog.builtIn.registry }
}
