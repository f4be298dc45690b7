import TradeportCore
import TradeportFormats

/// The built-in formats these tests read with, as the CLI finds them (the DSX formats are specs).
enum BuiltIn {
    static func adapter(_ id: String) -> any FormatAdapter {
        guard let adapter = FormatRegistry.builtIn.adapter(id: id) else { fatalError("no built-in format \(id)") }
        return adapter
    }
    static var dsxTrades: any FormatAdapter { adapter("dsx-trades") }
    static var dsxTransactions: any FormatAdapter { adapter("dsx-transactions") }
}
