import TradeportCSV
import TradeportXLSX

/// What a spec reads a field as: text (CSV, string cells), a number cell's stored text, or a date cell's serial.
enum SpecFieldKind {
    case text
    case number
    case date
}

/// A row a spec reads: a CSV record or a worksheet row, fields by 0-based column.
protocol SpecRow {
    var fieldCount: Int { get }
    func field(_ i: Int) -> (bytes: UnsafeRawBufferPointer, kind: SpecFieldKind)
}

extension CSVRecord: SpecRow {
    var fieldCount: Int { count }
    func field(_ i: Int) -> (bytes: UnsafeRawBufferPointer, kind: SpecFieldKind) {
        i < count ? (self[i], .text) : (UnsafeRawBufferPointer(start: nil, count: 0), .text)
    }
}

/// A worksheet row seen densely: its cells by column.
struct SheetSpecRow: SpecRow {
    let row: XLSXRow
    let byColumn: [Int]  // index into row.cells, -1 for none

    init(_ row: XLSXRow, scratch: inout [Int]) {
        self.row = row
        let width = (row.cells.map(\.column).max() ?? -1) + 1
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: repeatElement(-1, count: width))
        for (i, cell) in row.cells.enumerated() { scratch[cell.column] = i }
        byColumn = scratch
    }

    var fieldCount: Int { byColumn.count }

    func field(_ i: Int) -> (bytes: UnsafeRawBufferPointer, kind: SpecFieldKind) {
        guard i < byColumn.count, byColumn[i] >= 0 else { return (UnsafeRawBufferPointer(start: nil, count: 0), .text) }
        let cell = row.cells[byColumn[i]]
        switch cell.kind {
        case .number: return (cell.bytes, .number)
        case .date: return (cell.bytes, .date)
        default: return (cell.bytes, .text)
        }
    }
}
