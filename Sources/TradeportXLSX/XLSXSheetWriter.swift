import Foundation
import ZIPFoundation

/// A cell to write.
public enum XLSXOutputCell {
    case empty
    case text(String)
    /// A number's exact decimal text (`0.0003597`). More than 15 significant digits do not fit a
    /// spreadsheet's double: such a number is written as text, so that nothing is rounded.
    case number(String)
    /// A date and time (UTC), written as a serial with a date-time style.
    case dateTime(daysSince1970: Int64, secondOfDay: Int)
    case date(daysSince1970: Int64)
}

/// Why a sheet cannot be written.
public struct XLSXWriteError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure (new kinds may be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The sheet already holds `XLSXSheetWriter.maxRows` rows.
        public static let tooManyRows = Kind(name: "too many rows")
    }

    public let kind: Kind
    public let message: String
    /// The 1-based row that could not be written, when the failure is a row's.
    public let row: Int?

    public init(_ kind: Kind, _ message: String, row: Int? = nil) {
        self.kind = kind
        self.message = message
        self.row = row
    }

    public var description: String { message }
}

/// Writes a one-sheet workbook that LibreOffice and Excel open: a bold, frozen header row, number
/// cells, dates as dates. The sheet's XML is spooled to a scratch file as rows come, then zipped.
///
/// A row is written cell by cell, straight into the spool's buffer:
/// `beginRow()`, then `text`/`number`/`dateTime`/`date` with 0-based columns in increasing order,
/// then `endRow()`. `addRow(_:)` does the same from an array of cells.
public final class XLSXSheetWriter {
    /// A sheet's rows, header included: Excel's and LibreOffice's limit.
    public static let maxRows = 1_048_576

    private let sheetName: String
    private let spoolPath: String
    private let spool: FileHandle
    private var buffer: [UInt8] = []
    private var rowNumber = 0
    /// The current row's number as text, and whether it is the header.
    private var rowDigits: [UInt8] = []
    private var isHeader = false
    /// Column letters by column number, made as needed.
    private var columnLetters: [[UInt8]] = []

    public init(sheetName: String) throws {
        self.sheetName = sheetName
        spoolPath = NSTemporaryDirectory() + "tradeport-sheet-" + UUID().uuidString + ".xml"
        guard FileManager.default.createFile(atPath: spoolPath, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: spoolPath])
        }
        spool = try FileHandle(forWritingTo: URL(fileURLWithPath: spoolPath))
        buffer.reserveCapacity(Self.flushSize + 64 * 1024)
        append(#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#)
        append("\n")
        append(
            #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>"#
        )
    }

    deinit {
        try? spool.close()
        try? FileManager.default.removeItem(atPath: spoolPath)
    }

    private static let flushSize = 1 << 20

    private func append(_ text: StaticString) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private func appendString(_ text: String) { buffer.append(contentsOf: text.utf8) }

    private func flush() throws {
        try spool.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Starts the next row (the first is the header, its text bold). Throws past `maxRows`.
    public func beginRow() throws {
        guard rowNumber < Self.maxRows else {
            throw XLSXWriteError(.tooManyRows, "a sheet holds at most \(Self.maxRows) rows", row: rowNumber + 1)
        }
        rowNumber += 1
        isHeader = rowNumber == 1
        rowDigits.removeAll(keepingCapacity: true)
        rowDigits.append(contentsOf: String(rowNumber).utf8)
        append("<row r=\"")
        buffer.append(contentsOf: rowDigits)
        append("\">")
    }

    /// Ends the row, flushing the buffer to the spool when it is full.
    public func endRow() throws {
        append("</row>")
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// `<c r="B7"` for column 1 of row 7.
    private func openCell(_ column: Int) {
        while columnLetters.count <= column { columnLetters.append(Array(Self.columnName(columnLetters.count).utf8)) }
        append("<c r=\"")
        buffer.append(contentsOf: columnLetters[column])
        buffer.append(contentsOf: rowDigits)
        buffer.append(UInt8(ascii: "\""))
    }

    /// A text cell (an inline string).
    public func text(_ column: Int, _ text: String) {
        openCell(column)
        if isHeader { append(" s=\"3\"") }
        append(" t=\"inlineStr\"><is><t xml:space=\"preserve\">")
        appendEscaped(text)
        append("</t></is></c>")
    }

    /// A number cell from its decimal text (`-`, digits, `.`); past 15 significant digits a text
    /// cell, so that a spreadsheet's double does not round it.
    public func number(_ column: Int, _ digits: UnsafeRawBufferPointer) {
        var significant = 0
        for b in digits where b &- 48 < 10 {
            if significant > 0 || b != UInt8(ascii: "0") { significant += 1 }
        }
        openCell(column)
        if significant > 15 {
            append(" t=\"inlineStr\"><is><t>")
            appendEscaped(digits)
            append("</t></is></c>")
        } else {
            append("><v>")
            buffer.append(contentsOf: digits)
            append("</v></c>")
        }
    }

    /// A date-time cell: the serial (days since 1899-12-30, the time as a fraction to ten places,
    /// which a reader rounds back to the second) with the date-time style.
    public func dateTime(_ column: Int, daysSince1970: Int64, secondOfDay: Int) {
        openCell(column)
        append(" s=\"1\"><v>")
        appendSerial(daysSince1970, secondOfDay: secondOfDay)
        append("</v></c>")
    }

    /// A date cell: the serial with the date style.
    public func date(_ column: Int, daysSince1970: Int64) {
        openCell(column)
        append(" s=\"2\"><v>")
        appendSerial(daysSince1970, secondOfDay: 0)
        append("</v></c>")
    }

    /// Adds the next row from its cells, column by column (the first row is the header).
    public func addRow(_ cells: [XLSXOutputCell]) throws {
        try beginRow()
        for (i, cell) in cells.enumerated() {
            switch cell {
            case .empty: continue
            case .text(let t): text(i, t)
            case .number(var n): n.withUTF8 { number(i, UnsafeRawBufferPointer($0)) }
            case .dateTime(let days, let second): dateTime(i, daysSince1970: days, secondOfDay: second)
            case .date(let days): date(i, daysSince1970: days)
            }
        }
        try endRow()
    }

    /// Days since 1899-12-30 (1970-01-01 is 25569: the 1900 system past its phantom day), then
    /// `.` and the second of the day / 86400 to ten places, rounded half up, trailing zeros dropped.
    private func appendSerial(_ daysSince1970: Int64, secondOfDay: Int) {
        appendString(String(daysSince1970 + 25_569))
        guard secondOfDay > 0 else { return }
        var fraction = (secondOfDay * 10_000_000_000 * 2 + 86_400) / (86_400 * 2)
        var places = 10
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        buffer.append(UInt8(ascii: "."))
        var digits: [UInt8] = Array(repeating: UInt8(ascii: "0"), count: places)
        for k in stride(from: places - 1, through: 0, by: -1) {
            digits[k] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        buffer.append(contentsOf: digits)
    }

    /// Writes the workbook to `path`.
    public func finish(writingTo path: String) throws {
        append("</sheetData></worksheet>")
        try flush()
        try spool.close()
        try? FileManager.default.removeItem(atPath: path)
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        func add(_ name: String, _ text: String) throws {
            let data = Data(text.utf8)
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        let head = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        try add(
            "[Content_Types].xml",
            head
                + #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>"#
        )
        try add(
            "_rels/.rels",
            head
                + #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
        )
        try add(
            "xl/workbook.xml",
            head
                + #"<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name=""#
                + Self.escaped(sheetName) + #"" sheetId="1" r:id="rId1"/></sheets></workbook>"#)
        try add(
            "xl/_rels/workbook.xml.rels",
            head
                + #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#
        )
        try add(
            "xl/styles.xml",
            head
                + #"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\-mm\-dd\ hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>"#
        )
        try archive.addEntry(with: "xl/worksheets/sheet1.xml", fileURL: URL(fileURLWithPath: spoolPath), compressionMethod: .deflate)
    }

    /// `A`, `B`, …, `Z`, `AA`, … for a 0-based column.
    public static func columnName(_ column: Int) -> String {
        var n = column + 1
        var name = ""
        while n > 0 {
            let r = (n - 1) % 26
            name = String(UnicodeScalar(UInt8(65 + r))) + name
            n = (n - 1) / 26
        }
        return name
    }

    /// Appends `text` as XML character data: `& < > "` as entities; characters XML cannot hold
    /// (controls other than tab and LF, U+FFFE, U+FFFF) as OOXML's `_xHHHH_`, CR as `&#13;` (a CR as such
    /// reads back as LF); and a `_`
    /// that would read as the start of such an escape as `_x005F_`.
    private func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { Self.escape(UnsafeRawBufferPointer($0), into: &buffer) }
    }

    private func appendEscaped(_ bytes: UnsafeRawBufferPointer) { Self.escape(bytes, into: &buffer) }

    /// `text` escaped as `appendEscaped` writes it.
    static func escaped(_ text: String) -> String {
        var out: [UInt8] = []
        var text = text
        text.withUTF8 { escape(UnsafeRawBufferPointer($0), into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    private static func escape(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        let n = bytes.count
        var plainFrom = 0
        var i = 0
        func replace(_ length: Int, with replacement: String) {
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[plainFrom..<i]))
            out.append(contentsOf: replacement.utf8)
            i += length
            plainFrom = i
        }
        while i < n {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "&"): replace(1, with: "&amp;")
            case UInt8(ascii: "<"): replace(1, with: "&lt;")
            case UInt8(ascii: ">"): replace(1, with: "&gt;")
            case UInt8(ascii: "\""): replace(1, with: "&quot;")
            case 0x09, 0x0A: i += 1
            // A CR as such would be read back as LF (XML's end-of-line handling); a character
            // reference is not.
            case 0x0D: replace(1, with: "&#13;")
            case 0x00..<0x20: replace(1, with: String(format: "_x%04X_", Int(b)))
            case 0xEF where i + 2 < n && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                replace(3, with: bytes[i + 2] == 0xBE ? "_xFFFE_" : "_xFFFF_")
            case UInt8(ascii: "_") where OOXMLText.startsEscape(bytes, at: i):
                replace(1, with: "_x005F_")
            default: i += 1
            }
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[plainFrom..<n]))
    }
}
