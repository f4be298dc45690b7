import TradeportBalances
import TradeportCore

/// Parameters gathered as values.
struct SQLValueList: StatementParameters {
    var values: [SQLValue] = []

    mutating func null() { values.append(.null) }
    mutating func integer(_ value: Int64) { values.append(.integer(value)) }
    mutating func text(_ value: String) { values.append(.text(value)) }
    mutating func decimal(_ value: ExactDecimal) { values.append(.text(value.description)) }
    mutating func dateTime(_ value: ServerDateTime) { values.append(.text(value.textWithSeconds)) }
}
