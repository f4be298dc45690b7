import TradeportCore
import TradeportFormats

/// The built-in formats these tests read with, as the CLI finds them (the DSX formats are specs).
enum BuiltIn {
    static func reader(_ id: String) -> any FormatReader {
        guard let reader = FormatRegistry.builtIn.reader(id: id) else { fatalError("no built-in format \(id)") }
        return reader
    }
    static var dsxTrades: any FormatReader { reader("dsx-trades") }
    static var dsxTransactions: any FormatReader { reader("dsx-transactions") }
}
