import TradeportCore
import TradeportXLSX

/// The columns of section 3.1 (in 2020, section 3): the positions in securities.
enum PositionColumn: Int, CaseIterable {
    case name, code, isin, opening, credited, debited, closing

    static let table: [TableField] = [
        TableField("сокращенноенаименованиеактива", aliases: ["наименованиеактива", "сокращенноенаименование"]),
        TableField("кодактива", required: true),
        TableField("isin"),
        TableField("входящийостаток", required: true),
        TableField("зачисление", required: true),
        TableField("списание", required: true),
        TableField("исходящийостаток", required: true)
    ]
}
