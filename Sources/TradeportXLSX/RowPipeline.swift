import CXLSXSupport

/// Rows copied out of the C sheet parser in batches, so that inflating and parsing a sheet (its
/// own threads) and using its rows (the caller's thread) overlap. Cells of shared strings hold the
/// string's index; they are resolved, and number cells in date styles marked, when handed over.
struct RowBatch {
    var rows: [cx_row] = []
    var cells: [cx_cell] = []
    var bytes: [UInt8] = []

    static let rowsPerBatch = 512

    init(_ batch: UnsafePointer<cx_sheet_batch>) {
        let b = batch.pointee
        rows = Array(UnsafeBufferPointer(start: b.rows, count: Int(b.row_count)))
        cells = Array(UnsafeBufferPointer(start: b.cells, count: Int(b.cell_count)))
        bytes = Array(UnsafeBufferPointer(start: b.bytes, count: Int(b.byte_count)))
    }

    /// Hands each row over as an `XLSXRow`; stops when `body` returns false.
    func forEachRow(
        _ scratch: inout [XLSXCell], strings: SharedStrings?, dateStyles: [Bool],
        _ body: (XLSXRow) throws -> Bool
    ) rethrows -> Bool {
        try rows.withUnsafeBufferPointer { rows in
            try cells.withUnsafeBufferPointer { cells in
                try bytes.withUnsafeBytes { arena in
                    try Self.forEachRow(rows: rows, cells: cells, arena: arena, &scratch, strings: strings, dateStyles: dateStyles, body)
                }
            }
        }
    }

    /// `forEachRow` over a batch as the parser hands it over, without copying it (it is valid only
    /// during the parser's call).
    static func forEachRow(
        in batch: UnsafePointer<cx_sheet_batch>, _ scratch: inout [XLSXCell], strings: SharedStrings?,
        dateStyles: [Bool], _ body: (XLSXRow) throws -> Bool
    ) rethrows -> Bool {
        let b = batch.pointee
        return try forEachRow(
            rows: UnsafeBufferPointer(start: b.rows, count: Int(b.row_count)),
            cells: UnsafeBufferPointer(start: b.cells, count: Int(b.cell_count)),
            arena: UnsafeRawBufferPointer(start: b.bytes, count: Int(b.byte_count)),
            &scratch, strings: strings, dateStyles: dateStyles, body)
    }

    private static func forEachRow(
        rows: UnsafeBufferPointer<cx_row>, cells: UnsafeBufferPointer<cx_cell>, arena: UnsafeRawBufferPointer,
        _ scratch: inout [XLSXCell], strings: SharedStrings?, dateStyles: [Bool],
        _ body: (XLSXRow) throws -> Bool
    ) rethrows -> Bool {
        var start = 0
        for row in rows {
            let end = Int(row.cells_end)
            scratch.removeAll(keepingCapacity: true)
            for c in cells[start..<end] {
                let text: UnsafeRawBufferPointer
                var kind: XLSXCell.Kind
                switch Int32(c.type) {
                case Int32(CX_SHARED.rawValue):
                    text = strings!.bytes(at: Int(c.offset))
                    if text.isEmpty { continue }
                    kind = .string
                default:
                    text = UnsafeRawBufferPointer(rebasing: arena[Int(c.offset)..<(Int(c.offset) + Int(c.length))])
                    switch Int32(c.type) {
                    case Int32(CX_NUMBER.rawValue):
                        kind = c.style >= 0 && Int(c.style) < dateStyles.count && dateStyles[Int(c.style)] ? .date : .number
                    case Int32(CX_BOOLEAN.rawValue): kind = .boolean
                    case Int32(CX_ERROR.rawValue): kind = .error
                    case Int32(CX_ISO_DATE.rawValue): kind = .isoDate
                    default: kind = .string
                    }
                }
                scratch.append(XLSXCell(column: Int(c.column), kind: kind, bytes: text))
            }
            start = end
            if scratch.isEmpty { continue }
            let more = try scratch.withUnsafeBufferPointer { try body(XLSXRow(number: Int(row.number), cells: $0)) }
            if !more { return false }
        }
        return true
    }
}
