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
