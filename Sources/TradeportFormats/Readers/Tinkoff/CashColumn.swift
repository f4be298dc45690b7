import TradeportCore
import TradeportXLSX

/// The columns of a currency block's table in section 2.
enum CashColumn: Int, CaseIterable {
    case date, time, settled, operation, credit, debit, note

    static let table: [TableField] = [
        TableField("дата"),
        TableField("времясовершения"),
        TableField("датаисполнения"),
        TableField("операция", required: true),
        TableField("суммазачисления", required: true),
        TableField("суммасписания", required: true),
        TableField("примечание")
    ]
}
