import TradeportCore
import TradeportXLSX

/// The columns of section 4.1, the securities: how a ticker gets its ISIN, a name its ticker and a
/// bond its nominal.
enum SecurityColumn: Int, CaseIterable {
    case name, code, isin, nominal, nominalCurrency

    static let table: [TableField] = [
        TableField("сокращенноенаименованиеактива", aliases: ["наименованиеактива", "сокращенноенаименование"]),
        TableField("кодактива", required: true),
        TableField("isin", aliases: ["isinценнойбумаги"]),
        TableField("номинал"),
        TableField("валютаноминала")
    ]
}
