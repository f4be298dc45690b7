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

    /// The parser's position and the current row, behind a pointer: the hot path then pays no
    /// dynamic exclusivity checks, which class properties would cost on every event.
    private struct State {
        // The text of the current row's values.
        var arena: UnsafeMutableRawPointer
        var arenaCapacity = 1 << 16
        var arenaCount = 0
        var pending: [PendingCell] = []
        var cells: UnsafeMutablePointer<XLSXCell>
        var cellsCapacity = 256

        var inRow = false
        var rowNumber = 0
        var nextColumn = 0
        var inCell = false
        var cellColumn = 0
        var cellType = CellType.number
        var cellIsDate = false
        var valueStart = 0
        var hasValue = false
        var collecting = false
        var inInline = false
        var phoneticDepth = 0
    }
    private let s: UnsafeMutablePointer<State>

    init(part: String, sharedStrings: SharedStrings?, dateStyles: [Bool], body: @escaping (XLSXRow) throws -> Bool) {
        self.part = part
        self.sharedStrings = sharedStrings
        self.dateStyles = dateStyles
        self.body = body
        s = .allocate(capacity: 1)
        s.initialize(to: State(arena: .allocate(byteCount: 1 << 16, alignment: 8), cells: .allocate(capacity: 256)))
        s.pointee.pending.reserveCapacity(256)
    }

    deinit {
        s.pointee.arena.deallocate()
        s.pointee.cells.deallocate()
        s.deinitialize(count: 1)
        s.deallocate()
    }

    private func fail(_ message: String) {
        stop(XLSXError(.malformed, message, part: part))
    }

    override func startElement(_ name: UnsafePointer<CChar>, _ attributes: XMLAttributes) {
        switch UInt8(bitPattern: name[0]) {
        case UInt8(ascii: "c") where name[1] == 0:
            guard s.pointee.inRow else { return }
            startCell(attributes)
        case UInt8(ascii: "v") where name[1] == 0:
            if s.pointee.inCell {
                s.pointee.collecting = true
                s.pointee.hasValue = true
            }
        case UInt8(ascii: "t") where name[1] == 0:
            if s.pointee.inInline && s.pointee.phoneticDepth == 0 {
                s.pointee.collecting = true
                s.pointee.hasValue = true
            }
        case UInt8(ascii: "i") where XMLName.equals(name, "is"):
            if s.pointee.inCell { s.pointee.inInline = true }
        case UInt8(ascii: "r"):
            if XMLName.equals(name, "row") {
                startRow(attributes)
            } else if XMLName.equals(name, "rPh") {
                s.pointee.phoneticDepth += 1
            }
        default:
            return
        }
    }

    override func endElement(_ name: UnsafePointer<CChar>) {
        switch UInt8(bitPattern: name[0]) {
        case UInt8(ascii: "c") where name[1] == 0:
            if s.pointee.inCell { endCell() }
        case UInt8(ascii: "v"), UInt8(ascii: "t"):
            if name[1] == 0 { s.pointee.collecting = false }
        case UInt8(ascii: "i") where XMLName.equals(name, "is"):
            s.pointee.inInline = false
        case UInt8(ascii: "r"):
            if XMLName.equals(name, "row") {
                endRow()
            } else if XMLName.equals(name, "rPh") {
                s.pointee.phoneticDepth -= 1
            }
        default:
            return
        }
    }

    override func characters(_ text: UnsafeRawBufferPointer) {
        guard s.pointee.collecting, let base = text.baseAddress else { return }
        if s.pointee.arenaCount + text.count > s.pointee.arenaCapacity { growArena(text.count) }
        (s.pointee.arena + s.pointee.arenaCount).copyMemory(from: base, byteCount: text.count)
        s.pointee.arenaCount += text.count
    }

    private func growArena(_ extra: Int) {
        var capacity = s.pointee.arenaCapacity * 2
        while s.pointee.arenaCount + extra > capacity { capacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        grown.copyMemory(from: s.pointee.arena, byteCount: s.pointee.arenaCount)
        s.pointee.arena.deallocate()
        s.pointee.arena = grown
        s.pointee.arenaCapacity = capacity
    }

    private func startRow(_ attributes: XMLAttributes) {
        if let r = attributes.value("r") {
            guard let number = Self.integer(r), number >= 1, number <= 1_048_576 else {
                fail("row number '\(String(decoding: r, as: UTF8.self))' is not a number from 1 to 1048576")
                return
            }
            s.pointee.rowNumber = number
        } else {
            s.pointee.rowNumber += 1
        }
        s.pointee.inRow = true
        s.pointee.nextColumn = 0
        s.pointee.arenaCount = 0
        s.pointee.pending.removeAll(keepingCapacity: true)
    }

    private func startCell(_ attributes: XMLAttributes) {
        if let r = attributes.value("r") {
            guard let column = Self.column(r) else {
                fail("cell reference '\(String(decoding: r, as: UTF8.self))' in row \(s.pointee.rowNumber) is not like A1 to XFD1048576")
                return
            }
            s.pointee.cellColumn = column
        } else {
            s.pointee.cellColumn = s.pointee.nextColumn
        }
        s.pointee.cellType = .number
        if let t = attributes.value("t"), t.count > 0 {
            switch (t[0], t.count) {
            case (UInt8(ascii: "s"), 1): s.pointee.cellType = .shared
            case (UInt8(ascii: "n"), 1): s.pointee.cellType = .number
            case (UInt8(ascii: "b"), 1): s.pointee.cellType = .boolean
            case (UInt8(ascii: "e"), 1): s.pointee.cellType = .error
            case (UInt8(ascii: "d"), 1): s.pointee.cellType = .isoDate
            case (UInt8(ascii: "s"), 3): s.pointee.cellType = .formulaString
            case (UInt8(ascii: "i"), 9): s.pointee.cellType = .inline
            default:
                fail("cell type '\(String(decoding: t, as: UTF8.self))' in row \(s.pointee.rowNumber) is not one of s, n, b, e, d, str, inlineStr")
                return
            }
        }
        s.pointee.cellIsDate = false
        if s.pointee.cellType == .number, let styleText = attributes.value("s"), let style = Self.integer(styleText), style < dateStyles.count {
            s.pointee.cellIsDate = dateStyles[style]
        }
        s.pointee.inCell = true
        s.pointee.hasValue = false
        s.pointee.valueStart = s.pointee.arenaCount
    }

    private func endCell() {
        s.pointee.inCell = false
        s.pointee.inInline = false
        s.pointee.collecting = false
        s.pointee.nextColumn = s.pointee.cellColumn + 1
        guard s.pointee.hasValue else { return }
        var cell = PendingCell(column: Int32(s.pointee.cellColumn), kind: .string, start: Int32(s.pointee.valueStart),
                               length: Int32(s.pointee.arenaCount - s.pointee.valueStart), shared: -1)
        switch s.pointee.cellType {
        case .number:
            guard cell.length > 0 else { return }
            cell.kind = s.pointee.cellIsDate ? .date : .number
        case .shared:
            let text = UnsafeRawBufferPointer(start: s.pointee.arena + s.pointee.valueStart, count: s.pointee.arenaCount - s.pointee.valueStart)
            guard let index = Self.integer(text), let strings = sharedStrings, index < strings.count else {
                fail("shared string index '\(String(decoding: text, as: UTF8.self))' in row \(s.pointee.rowNumber) is not one of the \(sharedStrings?.count ?? 0) shared strings")
                return
            }
            s.pointee.arenaCount = s.pointee.valueStart
            if strings.bytes(at: index).isEmpty { return }
            cell.shared = Int32(index)
            cell.length = 0
        case .inline:
            s.pointee.arenaCount = s.pointee.valueStart + OOXMLText.unescape(s.pointee.arena + s.pointee.valueStart, count: s.pointee.arenaCount - s.pointee.valueStart)
            cell.length = Int32(s.pointee.arenaCount - s.pointee.valueStart)
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
        s.pointee.pending.append(cell)
    }

    private func endRow() {
        s.pointee.inRow = false
        guard !s.pointee.pending.isEmpty else { return }
        if s.pointee.pending.count > s.pointee.cellsCapacity {
            s.pointee.cells.deallocate()
            s.pointee.cellsCapacity = s.pointee.pending.count * 2
            s.pointee.cells = .allocate(capacity: s.pointee.cellsCapacity)
        }
        for (i, p) in s.pointee.pending.enumerated() {
            let bytes = p.shared >= 0
                ? sharedStrings!.bytes(at: Int(p.shared))
                : UnsafeRawBufferPointer(start: s.pointee.arena + Int(p.start), count: Int(p.length))
            (s.pointee.cells + i).initialize(to: XLSXCell(column: Int(p.column), kind: p.kind, bytes: bytes))
        }
        rowsRead += 1
        let row = XLSXRow(number: s.pointee.rowNumber, cells: UnsafeBufferPointer(start: s.pointee.cells, count: s.pointee.pending.count))
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
