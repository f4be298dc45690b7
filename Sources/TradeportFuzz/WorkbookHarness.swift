import TradeportCore
import TradeportFormats
import TradeportXLSX

/// `workbook`: the XLSX reader, from the archive down to every cell.
///
/// An input that is not small XML is written to a scratch file and opened as a workbook: every
/// sheet's rows are read and every cell's bytes, text and numbers looked at; a workbook that opens
/// is also read as a Tinkoff broker report. Small XML (up to 64 KB) is put into workbooks built
/// around it (stored entries, written here): as the shared strings, as the sheet, as the styles and
/// as the workbook part, so that each of those parsers gets structured input.
enum WorkbookHarness {
    /// Lower than the defaults (which allow gigabytes), so that an input cannot keep one execution
    /// inflating for long; the ratio checks are the defaults'.
    static let limits = XLSXLimits(
        maxEntryBytes: 64 << 20, maxTotalBytes: 128 << 20, maxRatio: 400,
        ratioGrace: 8 << 20, maxSmallPartBytes: 16 << 20)
    static let tinkoff = TinkoffReportReader()

    static func run(_ input: UnsafeRawBufferPointer) {
        let bytes = [UInt8](input)
        if bytes.count <= 64 * 1024, isXML(bytes) {
            read(BuiltWorkbook.archive(sharedStrings: bytes), as: "built.xlsx", tinkoff: false)
            read(BuiltWorkbook.archive(sheet: bytes), as: "built.xlsx", tinkoff: false)
            read(BuiltWorkbook.archive(styles: bytes), as: "built.xlsx", tinkoff: false)
            read(BuiltWorkbook.archive(workbook: bytes), as: "built.xlsx", tinkoff: false)
        } else {
            read(bytes, as: "input.xlsx", tinkoff: true)
        }
    }

    /// Whether the first byte that is not a BOM or white space is `<`.
    static func isXML(_ bytes: [UInt8]) -> Bool {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: "<")
    }

    static func read(_ archive: [UInt8], as name: String, tinkoff: Bool) {
        guard Scratch.store(archive, as: name) else { return }
        let path = Scratch.path(name)
        let workbook: XLSXWorkbook
        do {
            workbook = try XLSXWorkbook(path: path, limits: limits)
        } catch {
            blackHole("\(error)".utf8.count)
            return
        }
        precondition(workbook.path == path)
        for (i, sheet) in workbook.sheets.enumerated() {
            precondition(sheet.index == i, "sheet \(i) says it is sheet \(sheet.index)")
            blackHole(sheet.name.utf8.count &+ sheet.state.utf8.count &+ sheet.part.utf8.count)
            do {
                let named = try workbook.sheet(named: sheet.name)
                precondition(named.name == sheet.name, "sheet(named: \(sheet.name)) found \(named.name)")
            } catch {
                preconditionFailure("sheet(named:) does not find the sheet '\(sheet.name)' the workbook lists: \(error)")
            }
            readRows(of: sheet, in: workbook)
        }
        do {
            _ = try workbook.sheet(at: workbook.sheets.count)
            preconditionFailure("sheet(at:) found a sheet past the last one")
        } catch {
            blackHole("\(error)".utf8.count)
        }
        if tinkoff { readAsTinkoffReport(path) }
    }

    static func readRows(of sheet: XLSXWorkbook.Sheet, in workbook: XLSXWorkbook) {
        let system = workbook.dateSystem
        var rows = 0
        do {
            try workbook.readRows(of: sheet) { row in
                rows += 1
                check(row, system: system)
                return true
            }
        } catch {
            blackHole("\(error)".utf8.count)
        }
        blackHole(rows)
    }

    static func check(_ row: XLSXRow, system: XLSXWorkbook.DateSystem) {
        precondition(row.number >= 1, "row number \(row.number)")
        precondition(!row.cells.isEmpty, "row \(row.number) handed over without cells")
        var acc: UInt32 = 0
        for cell in row.cells {
            precondition((0...16383).contains(cell.column), "a cell in column \(cell.column)")
            precondition(
                !cell.bytes.isEmpty || cell.kind == .boolean || cell.kind == .error || cell.kind == .isoDate,
                "an empty \(cell.kind) cell in row \(row.number)")
            acc = acc &+ checksum(cell.bytes)
            acc = acc &+ UInt32(truncatingIfNeeded: cell.text.utf8.count)
            switch cell.kind {
            case .number, .date:
                NumbersHarness.checkSheetNumber(cell.bytes)
                if let date = XLSXDateTime(serial: cell.bytes, system: system) { NumbersHarness.checkDateTime(date) }
            case .isoDate:
                if let date = XLSXDateTime(iso: cell.bytes) { NumbersHarness.checkDateTime(date) }
            default:
                blackHole(cell.plainNumber)
            }
        }
        let first = row.cells[0]
        precondition(row.cell(at: first.column) != nil, "cell(at: \(first.column)) misses the row's first cell")
        acc = acc &+ UInt32(truncatingIfNeeded: row.text.utf8.count)
        blackHole(acc)
    }

    static func readAsTinkoffReport(_ path: String) {
        do {
            let input = try SourceInput(path: path)
            var records = 0
            try tinkoff.read(input, options: ReadOptions()) { record, rawText in
                records += 1
                if case .rejected(let row) = record { precondition(!row.errors.isEmpty, "a rejected row without errors") }
                blackHole(rawText().utf8.count)
            }
            blackHole(records)
        } catch {
            blackHole("\(error)".utf8.count)
        }
    }
}

/// Small workbooks built around one part given as bytes: the other parts fixed, the archive's
/// entries stored (not deflated), written by hand.
enum BuiltWorkbook {
    static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    static let relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

    static let contentTypes = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>
        """
    static let packageRelationships = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="\(relationships)/officeDocument" Target="xl/workbook.xml"/></Relationships>
        """
    static let workbookRelationships = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="\(relationships)/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="\(relationships)/worksheet" Target="/xl/worksheets/sheet2.xml"/><Relationship Id="rId3" Type="\(relationships)/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId4" Type="\(relationships)/styles" Target="./styles.xml"/><Relationship Id="rId5" Type="\(relationships)/hyperlink" Target="https://example.com/" TargetMode="External"/></Relationships>
        """
    static let workbook = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <workbook xmlns="\(main)" xmlns:r="\(relationships)"><workbookPr/><sheets><sheet name="broker_rep" sheetId="1" r:id="rId1"/><sheet name="Second" sheetId="2" state="hidden" r:id="rId2"/></sheets></workbook>
        """
    /// Eight shared strings.
    static let sharedStrings = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <sst xmlns="\(main)" count="8" uniqueCount="8"><si><t>Отчет о сделках и операциях за период 01.01.2021 - 31.12.2021</t></si><si><t xml:space="preserve"> Брокер: АО «Тинькофф Банк» </t></si><si><t>a_x000D__x000A_b_x005F_x0041_</t></si><si><r><t>rich </t></r><r><rPr><b/></rPr><t>text</t></r></si><si><t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh></si><si><t/></si><si><t>1.1 Информация о совершенных и исполненных сделках на конец отчетного периода</t></si><si><t>_xD83D__xDE00_ _xD800_</t></si></sst>
        """
    /// Styles 0 plain, 1 a built-in date format, 2 a custom date format, 3 a time, 4 a custom non-date.
    static let styles = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <styleSheet xmlns="\(main)"><numFmts count="3"><numFmt numFmtId="164" formatCode="dd.mm.yyyy"/><numFmt numFmtId="165" formatCode="[h]:mm:ss"/><numFmt numFmtId="166" formatCode="&quot;day&quot;\\ 0.00;[Red]-0.00"/></numFmts><cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/></cellXfs></styleSheet>
        """
    /// A sheet using the shared strings by index, one a row (a bad index fails only its row), and
    /// numbers in every style.
    static let sheet = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <worksheet xmlns="\(main)" xmlns:r="\(relationships)"><sheetData>\
        <row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>\
        <row r="3"><c r="A3" t="s"><v>2</v></c></row><row r="4"><c r="A4" t="s"><v>3</v></c></row>\
        <row r="5"><c r="A5" t="s"><v>4</v></c></row><row r="6"><c r="A6" t="s"><v>5</v></c></row>\
        <row r="7"><c r="A7" t="s"><v>6</v></c></row><row r="8"><c r="A8" t="s"><v>7</v></c></row>\
        <row r="9"><c r="A9" s="0"><v>44197.5</v></c><c r="B9" s="1"><v>44197.5</v></c><c r="C9" s="2"><v>1.5E-3</v></c>\
        <c r="D9" s="3"><v>0.999999</v></c><c r="E9" s="4"><v>-12.5</v></c><c r="F9" s="5"><v>60</v></c><c r="G9" t="d"><v>2021-01-01T12:00:00</v></c>\
        <c r="H9" t="b"><v>1</v></c><c r="I9" t="e"><v>#N/A</v></c><c r="J9" t="inlineStr"><is><t>inline</t></is></c></row>\
        </sheetData></worksheet>
        """

    static func archive(sharedStrings part: [UInt8]) -> [UInt8] {
        archive(workbook: Array(workbook.utf8), sheet: Array(sheet.utf8), sharedStrings: part, styles: Array(styles.utf8))
    }

    static func archive(sheet part: [UInt8]) -> [UInt8] {
        archive(workbook: Array(workbook.utf8), sheet: part, sharedStrings: Array(sharedStrings.utf8), styles: Array(styles.utf8))
    }

    static func archive(styles part: [UInt8]) -> [UInt8] {
        archive(workbook: Array(workbook.utf8), sheet: Array(sheet.utf8), sharedStrings: Array(sharedStrings.utf8), styles: part)
    }

    static func archive(workbook part: [UInt8]) -> [UInt8] {
        archive(workbook: part, sheet: Array(sheet.utf8), sharedStrings: Array(sharedStrings.utf8), styles: Array(styles.utf8))
    }

    static func archive(workbook: [UInt8], sheet: [UInt8], sharedStrings: [UInt8], styles: [UInt8]) -> [UInt8] {
        StoredZip.archive([
            ("[Content_Types].xml", Array(contentTypes.utf8)),
            ("_rels/.rels", Array(packageRelationships.utf8)),
            ("xl/workbook.xml", workbook),
            ("xl/_rels/workbook.xml.rels", Array(workbookRelationships.utf8)),
            ("xl/worksheets/sheet1.xml", sheet),
            ("xl/worksheets/sheet2.xml", Array(Self.sheet.utf8)),
            ("xl/sharedStrings.xml", sharedStrings),
            ("xl/styles.xml", styles)
        ])
    }
}

/// A ZIP archive of stored entries (method 0), as small as the format allows.
enum StoredZip {
    static func archive(_ entries: [(name: String, data: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for (name, data) in entries {
            let nameBytes = Array(name.utf8)
            let crc = CRC32.checksum(data)
            let offset = out.count
            // Local file header.
            out.u32(0x0403_4B50)
            out.u16(20)  // version needed
            out.u16(0)  // flags
            out.u16(0)  // stored
            out.u16(0)  // time
            out.u16(0x21)  // date: 1980-01-01
            out.u32(crc)
            out.u32(UInt32(data.count))
            out.u32(UInt32(data.count))
            out.u16(UInt16(nameBytes.count))
            out.u16(0)  // extra field length
            out += nameBytes
            out += data
            // Its central directory entry.
            directory.u32(0x0201_4B50)
            directory.u16(20)  // version made by
            directory.u16(20)  // version needed
            directory.u16(0)
            directory.u16(0)
            directory.u16(0)
            directory.u16(0x21)
            directory.u32(crc)
            directory.u32(UInt32(data.count))
            directory.u32(UInt32(data.count))
            directory.u16(UInt16(nameBytes.count))
            directory.u16(0)  // extra field length
            directory.u16(0)  // comment length
            directory.u16(0)  // disk number
            directory.u16(0)  // internal attributes
            directory.u32(0)  // external attributes
            directory.u32(UInt32(offset))
            directory += nameBytes
        }
        let directoryOffset = out.count
        out += directory
        // End of central directory.
        out.u32(0x0605_4B50)
        out.u16(0)
        out.u16(0)
        out.u16(UInt16(entries.count))
        out.u16(UInt16(entries.count))
        out.u32(UInt32(directory.count))
        out.u32(UInt32(directoryOffset))
        out.u16(0)
        return out
    }
}

/// CRC-32 (ISO-HDLC, ZIP's), by table.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension [UInt8] {
    fileprivate mutating func u16(_ v: UInt16) {
        append(UInt8(v & 0xFF))
        append(UInt8(v >> 8))
    }

    fileprivate mutating func u32(_ v: UInt32) {
        for k in 0..<4 { append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) }
    }
}
