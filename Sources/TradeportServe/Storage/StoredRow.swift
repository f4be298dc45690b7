import TradeportBalances
import TradeportCore

/// A result row as both stores hand it to `StoredRecord.init(row:)`: columns by 0-based index.
protocol StoredRow {
    func integer(_ column: Int) -> Int64
    func optionalText(_ column: Int) -> String?
    /// A decimal in the canonical text the store writes (`-0.0025`); nil for NULL or other text.
    func optionalDecimal(_ column: Int) -> ExactDecimal?
}

extension StoredRow {
    func text(_ column: Int) -> String { optionalText(column) ?? "" }

    func optionalDecimal(_ column: Int) -> ExactDecimal? {
        guard var text = optionalText(column) else { return nil }
        return text.withUTF8 { utf8 -> ExactDecimal? in
            guard case .success(let value) = ExactDecimal.parse(UnsafeRawBufferPointer(utf8), style: .canonical) else { return nil }
            return value
        }
    }
}
