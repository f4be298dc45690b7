import Foundation
import ZIPFoundation

/// A cell to write.
public enum XLSXOutputCell {
    case empty
    case text(String)
    /// A number's exact decimal text (`0.0003597`). More than 15 significant digits do not fit a
    /// spreadsheet's double: such a number is written as text, so that nothing is rounded.
    case number(String)
    /// A date and time, written as a serial with a date-time style.
    case dateTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)
    case date(year: Int, month: Int, day: Int)
}

/// Writes a one-sheet workbook that LibreOffice and Excel open: a bold, frozen header row, number
/// cells, dates as dates. The sheet's XML is spooled to a scratch file as rows come, then zipped.
public final class XLSXSheetWriter {
    private let sheetName: String
    private let spoolPath: String
    private let spool: FileHandle
    private var buffer = Data()
    private var rowNumber = 0

    public init(sheetName: String) throws {
        self.sheetName = sheetName
        spoolPath = NSTemporaryDirectory() + "tradeport-sheet-" + UUID().uuidString + ".xml"
        guard FileManager.default.createFile(atPath: spoolPath, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: spoolPath])
        }
        spool = try FileHandle(forWritingTo: URL(fileURLWithPath: spoolPath))
        append(#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n")
        append(#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>"#)
    }

    deinit {
        try? spool.close()
        try? FileManager.default.removeItem(atPath: spoolPath)
    }

    private func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count > 1 << 20 { flush() }
    }

    private func flush() {
        spool.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Adds the next row (the first is the header, written bold).
    public func addRow(_ cells: [XLSXOutputCell]) {
        rowNumber += 1
        var xml = "<row r=\"\(rowNumber)\">"
        let headerStyle = rowNumber == 1 ? " s=\"3\"" : ""
        for (i, cell) in cells.enumerated() {
            let ref = Self.columnName(i) + String(rowNumber)
            switch cell {
            case .empty:
                continue
            case .text(let t):
                xml += "<c r=\"\(ref)\"\(headerStyle) t=\"inlineStr\"><is><t xml:space=\"preserve\">\(Self.escape(t))</t></is></c>"
            case .number(let n):
                let digits = n.filter(\.isNumber).drop { $0 == "0" }
                if digits.count > 15 {
                    xml += "<c r=\"\(ref)\" t=\"inlineStr\"><is><t>\(Self.escape(n))</t></is></c>"
                } else {
                    xml += "<c r=\"\(ref)\"><v>\(n)</v></c>"
                }
            case .dateTime(let y, let mo, let d, let h, let mi, let s):
                xml += "<c r=\"\(ref)\" s=\"1\"><v>\(Self.serial(y, mo, d, seconds: h * 3600 + mi * 60 + s))</v></c>"
            case .date(let y, let mo, let d):
                xml += "<c r=\"\(ref)\" s=\"2\"><v>\(Self.serial(y, mo, d, seconds: 0))</v></c>"
            }
        }
        append(xml + "</row>")
    }

    /// Writes the workbook to `path`.
    public func finish(writingTo path: String) throws {
        append("</sheetData></worksheet>")
        flush()
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
        try add("[Content_Types].xml", head + #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>"#)
        try add("_rels/.rels", head + #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#)
        try add("xl/workbook.xml", head + #"<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name=""# + Self.escape(sheetName) + #"" sheetId="1" r:id="rId1"/></sheets></workbook>"#)
        try add("xl/_rels/workbook.xml.rels", head + #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#)
        try add("xl/styles.xml", head + #"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\-mm\-dd\ hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>"#)
        try archive.addEntry(with: "xl/worksheets/sheet1.xml", fileURL: URL(fileURLWithPath: spoolPath), compressionMethod: .deflate)
    }

    /// Days since 1899-12-30 (the 1900 system past its phantom day), with the time as a fraction
    /// to ten places (a reader rounds it back to the second).
    static func serial(_ y: Int, _ m: Int, _ d: Int, seconds: Int) -> String {
        let days = XLSXDateTime.daysFromCivil(y, m, d) - XLSXDateTime.daysFromCivil(1899, 12, 30)
        guard seconds > 0 else { return String(days) }
        // seconds / 86400 to ten decimal places, rounded half up, by integer arithmetic.
        let scaled = (seconds * 10_000_000_000 * 2 + 86_400) / (86_400 * 2)
        var fraction = String(scaled)
        fraction = String(repeating: "0", count: max(0, 10 - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(days).\(fraction)"
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

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                // Characters XML cannot hold, escaped as OOXML does.
                out += String(format: "_x%04X_", scalar.value)
            case "_":
                out += "_"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
