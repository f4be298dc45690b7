import Foundation

/// Reads a worksheet's XML and hands over its rows one at a time. Rows and cells may lack their
/// `r` attribute (they follow the one before), may be sparse, and `<dimension>` is ignored.
final class SheetHandler: XMLEventHandler {
    private enum CellType: UInt8 { case number, shared, inline, formulaString, boolean, error, isoDate }

    private struct PendingCell {
        var column: Int32
        var kind: XLSXCell.Kind
        var start: Int32
        var length: Int32
        var shared: Int32
    }

    private let part: String
    private let sharedStrings: SharedStrings?
    private let dateStyles: [Bool]
    private let body: (XLSXRow) throws -> Bool

    /// What `body` threw, or whether it asked to stop.
    private(set) var bodyError: Error?
    private(set) var stoppedByBody = false
    private(set) var rowsRead = 0

    // The text of the current row's values.
    private var arena: UnsafeMutableRawPointer
    private var arenaCapacity = 1 << 16
    private var arenaCount = 0
    private var pending: [PendingCell] = []
    private var cells: UnsafeMutablePointer<XLSXCell>
    private var cellsCapacity = 256

    private var inRow = false
    private var rowNumber = 0
    private var nextColumn = 0
    private var inCell = false
    private var cellColumn = 0
    private var cellType = CellType.number
    private var cellIsDate = false
    private var valueStart = 0
    private var hasValue = false
    private var collecting = false
    private var inInline = false
    private var phoneticDepth = 0

    init(part: String, sharedStrings: SharedStrings?, dateStyles: [Bool], body: @escaping (XLSXRow) throws -> Bool) {
        self.part = part
        self.sharedStrings = sharedStrings
        self.dateStyles = dateStyles
        self.body = body
        arena = .allocate(byteCount: arenaCapacity, alignment: 8)
        cells = .allocate(capacity: cellsCapacity)
        pending.reserveCapacity(256)
    }

    deinit {
        arena.deallocate()
        cells.deallocate()
    }

    private func fail(_ message: String) {
        stop(XLSXError(.malformed, message, part: part))
    }

    override func startElement(_ name: UnsafePointer<CChar>, _ attributes: XMLAttributes) {
        switch UInt8(bitPattern: name[0]) {
        case UInt8(ascii: "c") where name[1] == 0:
            guard inRow else { return }
            startCell(attributes)
        case UInt8(ascii: "v") where name[1] == 0:
            if inCell {
                collecting = true
                hasValue = true
            }
        case UInt8(ascii: "t") where name[1] == 0:
            if inInline && phoneticDepth == 0 {
                collecting = true
                hasValue = true
            }
        case UInt8(ascii: "i") where XMLName.equals(name, "is"):
            if inCell { inInline = true }
        case UInt8(ascii: "r"):
            if XMLName.equals(name, "row") {
                startRow(attributes)
            } else if XMLName.equals(name, "rPh") {
                phoneticDepth += 1
            }
        default:
            return
        }
    }

    override func endElement(_ name: UnsafePointer<CChar>) {
        switch UInt8(bitPattern: name[0]) {
        case UInt8(ascii: "c") where name[1] == 0:
            if inCell { endCell() }
        case UInt8(ascii: "v"), UInt8(ascii: "t"):
            if name[1] == 0 { collecting = false }
        case UInt8(ascii: "i") where XMLName.equals(name, "is"):
            inInline = false
        case UInt8(ascii: "r"):
            if XMLName.equals(name, "row") {
                endRow()
            } else if XMLName.equals(name, "rPh") {
                phoneticDepth -= 1
            }
        default:
            return
        }
    }

    override func characters(_ text: UnsafeRawBufferPointer) {
        guard collecting, let base = text.baseAddress else { return }
        if arenaCount + text.count > arenaCapacity { growArena(text.count) }
        (arena + arenaCount).copyMemory(from: base, byteCount: text.count)
        arenaCount += text.count
    }

    private func growArena(_ extra: Int) {
        var capacity = arenaCapacity * 2
        while arenaCount + extra > capacity { capacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        grown.copyMemory(from: arena, byteCount: arenaCount)
        arena.deallocate()
        arena = grown
        arenaCapacity = capacity
    }

    private func startRow(_ attributes: XMLAttributes) {
        if let r = attributes.value("r") {
            guard let number = Self.integer(r), number >= 1, number <= 1_048_576 else {
                fail("row number '\(String(decoding: r, as: UTF8.self))' is not a number from 1 to 1048576")
                return
            }
            rowNumber = number
        } else {
            rowNumber += 1
        }
        inRow = true
        nextColumn = 0
        arenaCount = 0
        pending.removeAll(keepingCapacity: true)
    }

    private func startCell(_ attributes: XMLAttributes) {
        if let r = attributes.value("r") {
            guard let column = Self.column(r) else {
                fail("cell reference '\(String(decoding: r, as: UTF8.self))' in row \(rowNumber) is not like A1 to XFD1048576")
                return
            }
            cellColumn = column
        } else {
            cellColumn = nextColumn
        }
        cellType = .number
        if let t = attributes.value("t"), t.count > 0 {
            switch (t[0], t.count) {
            case (UInt8(ascii: "s"), 1): cellType = .shared
            case (UInt8(ascii: "n"), 1): cellType = .number
            case (UInt8(ascii: "b"), 1): cellType = .boolean
            case (UInt8(ascii: "e"), 1): cellType = .error
            case (UInt8(ascii: "d"), 1): cellType = .isoDate
            case (UInt8(ascii: "s"), 3): cellType = .formulaString
            case (UInt8(ascii: "i"), 9): cellType = .inline
            default:
                fail("cell type '\(String(decoding: t, as: UTF8.self))' in row \(rowNumber) is not one of s, n, b, e, d, str, inlineStr")
                return
            }
        }
        cellIsDate = false
        if cellType == .number, let s = attributes.value("s"), let style = Self.integer(s), style < dateStyles.count {
            cellIsDate = dateStyles[style]
        }
        inCell = true
        hasValue = false
        valueStart = arenaCount
    }

    private func endCell() {
        inCell = false
        inInline = false
        collecting = false
        nextColumn = cellColumn + 1
        guard hasValue else { return }
        var cell = PendingCell(column: Int32(cellColumn), kind: .string, start: Int32(valueStart),
                               length: Int32(arenaCount - valueStart), shared: -1)
        switch cellType {
        case .number:
            guard cell.length > 0 else { return }
            cell.kind = cellIsDate ? .date : .number
        case .shared:
            let text = UnsafeRawBufferPointer(start: arena + valueStart, count: arenaCount - valueStart)
            guard let index = Self.integer(text), let strings = sharedStrings, index < strings.count else {
                fail("shared string index '\(String(decoding: text, as: UTF8.self))' in row \(rowNumber) is not one of the \(sharedStrings?.count ?? 0) shared strings")
                return
            }
            arenaCount = valueStart
            if strings.bytes(at: index).isEmpty { return }
            cell.shared = Int32(index)
            cell.length = 0
        case .inline:
            arenaCount = valueStart + OOXMLText.unescape(arena + valueStart, count: arenaCount - valueStart)
            cell.length = Int32(arenaCount - valueStart)
            guard cell.length > 0 else { return }
        case .formulaString:
            guard cell.length > 0 else { return }
        case .boolean:
            cell.kind = .boolean
        case .error:
            cell.kind = .error
        case .isoDate:
            cell.kind = .isoDate
        }
        pending.append(cell)
    }

    private func endRow() {
        inRow = false
        guard !pending.isEmpty else { return }
        if pending.count > cellsCapacity {
            cells.deallocate()
            cellsCapacity = pending.count * 2
            cells = .allocate(capacity: cellsCapacity)
        }
        for (i, p) in pending.enumerated() {
            let bytes = p.shared >= 0
                ? sharedStrings!.bytes(at: Int(p.shared))
                : UnsafeRawBufferPointer(start: arena + Int(p.start), count: Int(p.length))
            (cells + i).initialize(to: XLSXCell(column: Int(p.column), kind: p.kind, bytes: bytes))
        }
        rowsRead += 1
        let row = XLSXRow(number: rowNumber, cells: UnsafeBufferPointer(start: cells, count: pending.count))
        do {
            if try !body(row) {
                stoppedByBody = true
                stop(nil)
            }
        } catch {
            bodyError = error
            stop(nil)
        }
    }

    @inline(__always)
    static func integer(_ text: UnsafeRawBufferPointer) -> Int? {
        guard !text.isEmpty, text.count <= 10 else { return nil }
        var value = 0
        for c in text {
            let d = c &- 48
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
        }
        return value
    }

    /// The 0-based column of a reference like `AB12` (letters A to XFD, then a row number).
    @inline(__always)
    static func column(_ reference: UnsafeRawBufferPointer) -> Int? {
        var column = 0
        var i = 0
        while i < reference.count {
            let c = reference[i] | 0x20
            guard c >= UInt8(ascii: "a"), c <= UInt8(ascii: "z") else { break }
            column = column * 26 + Int(c - UInt8(ascii: "a") + 1)
            i += 1
        }
        guard i > 0, i <= 3, column <= 16_384, i < reference.count else { return nil }
        while i < reference.count {
            guard reference[i] &- 48 < 10 else { return nil }
            i += 1
        }
        return column - 1
    }
}
