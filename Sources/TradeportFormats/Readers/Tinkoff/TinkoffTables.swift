import TradeportCore
import TradeportXLSX

/// How the Tinkoff report's tables are recognized: header texts compared as `HeaderText` folds
/// them (whitespace and line breaks removed, case folded), each table occurrence mapped by its own
/// header row.
enum TinkoffHeader {
    /// The folded texts of a row's string cells, by column.
    static func foldedTexts(_ row: XLSXRow) -> [(column: Int, text: [UInt8])] {
        row.cells.compactMap { $0.kind == .string ? ($0.column, HeaderText.fold($0.bytes)) : nil }
    }
}

/// A field a table has: the header texts that name it (normalized) and whether it is required.
struct TableField {
    let header: String
    let required: Bool
    /// The header and its aliases as folded bytes, for comparing without strings.
    let folded: [[UInt8]]

    init(_ header: String, aliases: [String] = [], required: Bool = false) {
        self.header = header
        self.required = required
        folded = ([header] + aliases).map { Array($0.utf8) }
    }
}

/// One row of a table, its cells by field: what the values are read from.
struct TableRow<Field: CaseIterable & RawRepresentable<Int>> {
    private var cells = [XLSXCell?](repeating: nil, count: Field.allCases.count)
    private var columns: [Int?] = []

    /// Takes the cells of `row`, by the fields `map` gives their columns.
    mutating func read(_ row: XLSXRow, _ map: TableMap) {
        map.cells(of: row, into: &cells)
        columns = map.columns
    }

    subscript(field: Field) -> TableCell { TableCell(cell: cells[field.rawValue], column: columns[field.rawValue]) }
}

/// A field's cell in a row, if the row has one, and the field's column in the row's table: where
/// an error about the value is (the cell's own column when there is a cell).
struct TableCell {
    let cell: XLSXCell?
    /// 0-based; nil when the table has no such column.
    let column: Int?
}

/// Which column holds which field, for one occurrence of a table's header row.
struct TableMap {
    let headerRow: Int
    /// The field index of each column (-1 for none).
    private var fieldOfColumn: [Int16]
    /// The column of each field (nil when absent).
    let columns: [Int?]
    /// Required fields the header lacks, by their header text.
    let missing: [String]

    init(fields: [TableField], header: XLSXRow) {
        self.init(fields: fields, headerRow: header.number, texts: TinkoffHeader.foldedTexts(header))
    }

    init(fields: [TableField], headerRow: Int, texts: [(column: Int, text: [UInt8])]) {
        self.headerRow = headerRow
        var columns = [Int?](repeating: nil, count: fields.count)
        var fieldOfColumn: [Int16] = []
        for (column, text) in texts {
            guard let f = fields.firstIndex(where: { $0.folded.contains(text) }), columns[f] == nil else { continue }
            columns[f] = column
            if column >= fieldOfColumn.count { fieldOfColumn += [Int16](repeating: -1, count: column + 1 - fieldOfColumn.count) }
            fieldOfColumn[column] = Int16(f)
        }
        self.columns = columns
        self.fieldOfColumn = fieldOfColumn
        missing = zip(fields, columns).compactMap { $0.required && $1 == nil ? $0.header : nil }
    }

    /// The row's cells by field: `cells[f]` is the cell of field `f`, if the row has one.
    func cells(of row: XLSXRow, into cells: inout [XLSXCell?]) {
        for i in cells.indices { cells[i] = nil }
        for cell in row.cells where cell.column < fieldOfColumn.count {
            let f = Int(fieldOfColumn[cell.column])
            if f >= 0 { cells[f] = cell }
        }
    }
}

/// The columns of the deal tables (sections 1.1 to 1.3), by the header texts of every generation
/// (2020–2026): folded (no whitespace, lower case), with the renames as aliases.
enum DealColumn: Int, CaseIterable {
    case deal, order, date, time, venue, kind, name, code, price, priceCurrency, quantity, amountWithoutInterest,
        accruedInterest, amount, settlementCurrency, brokerFee, brokerFeeCurrency, stampDuty, stampDutyCurrency, settlementDate

    static let table: [TableField] = [
        TableField("номерсделки", required: true),
        TableField("номерпоручения"),
        TableField("датазаключения", required: true),
        TableField("время", required: true),
        TableField("торговаяплощадка"),
        TableField("видсделки", required: true),
        // 2020–2024 «Сокращенное наименование актива» (2023: cut to «Сокращенное наименование »); 2025– «Наименование актива».
        TableField("сокращенноенаименованиеактива", aliases: ["сокращенноенаименование", "наименованиеактива"]),
        TableField("кодактива", required: true),
        TableField("ценазаединицу", required: true),
        TableField("валютацены", required: true),
        TableField("количество", required: true),
        TableField("сумма(безнкд)"),
        TableField("нкд"),
        TableField("суммасделки"),
        TableField("валютарасчетов"),
        TableField("комиссияброкера"),
        TableField("валютакомиссии", aliases: ["валютакомиссииброкера"]),
        // «Комиссия биржи» and «Комиссия клир. центра» are not read: they are part of the broker's
        // fee (section 2 charges «Комиссия за сделки» = the broker fees of the day's deals alone).
        TableField("гербовыйсбор"),
        TableField("валютагербовогосбора"),
        // «Дата расчетов», since 2023 «Дата расчетов план/факт».
        TableField("датарасчетов", aliases: ["датарасчетовплан/факт"])
    ]

    /// The header text as the report prints it, for messages.
    static let printed: [String: String] = [
        "номерсделки": "Номер сделки", "датазаключения": "Дата заключения", "время": "Время", "видсделки": "Вид сделки",
        "кодактива": "Код актива", "ценазаединицу": "Цена за единицу", "валютацены": "Валюта цены",
        "количество": "Количество", "операция": "Операция", "суммазачисления": "Сумма зачисления",
        "суммасписания": "Сумма списания", "валюта": "Валюта",
        "входящийостаток": "Входящий остаток", "исходящийостаток": "Исходящий остаток", "зачисление": "Зачисление", "списание": "Списание"
    ]
}

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

/// The columns of section 2's balance summary: one row per currency.
enum BalanceColumn: Int, CaseIterable {
    case currency, opening, closing

    static let table: [TableField] = [
        TableField("валюта", required: true),
        // Until 2024 «Входящий остаток на начало периода:»; since 2025 «Входящий остаток».
        TableField("входящийостаток", aliases: ["входящийостатокнаначалопериода:", "входящийостатокнаначалопериода"], required: true),
        TableField("исходящийостаток", aliases: ["исходящийостатокнаконецпериода:", "исходящийостатокнаконецпериода"], required: true)
    ]
}

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
