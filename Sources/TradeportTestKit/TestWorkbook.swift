import Foundation
import TradeportXLSX
import ZIPFoundation

/// Small XLSX workbooks built by tests themselves: the parts of an archive, written with
/// ZIPFoundation, so a reader test can state exactly the XML it reads.
public struct TestWorkbook {
    /// The archive's entries, in order: path and contents.
    public var parts: [(path: String, contents: Data)]

    public init(parts: [(path: String, contents: Data)]) {
        self.parts = parts
    }

    public static let mainNamespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    public static let relationshipsNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    public static let strictMainNamespace = "http://purl.oclc.org/ooxml/spreadsheetml/main"
    public static let strictRelationshipsNamespace = "http://purl.oclc.org/ooxml/officeDocument/relationships"

    /// A workbook of one or more sheets given as their `<sheetData>` contents, with optional
    /// shared strings and styles. Sheets are stored as `xl/worksheets/<file>`, found through the
    /// workbook's relationships.
    public static func make(
        sheets: [(name: String, file: String, sheetData: String)],
        sharedStrings: [String]? = nil,
        sharedStringsXML: String? = nil,
        stylesXML: String? = nil,
        date1904: Bool = false,
        strict: Bool = false
    ) -> TestWorkbook {
        let main = strict ? strictMainNamespace : mainNamespace
        let rel = strict ? strictRelationshipsNamespace : relationshipsNamespace
        let typeBase =
            strict
            ? "http://purl.oclc.org/ooxml/officeDocument/relationships"
            : "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        var parts: [(String, Data)] = []
        func add(_ path: String, _ text: String) { parts.append((path, Data(text.utf8))) }
        add(
            "[Content_Types].xml",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>
            """)
        add(
            "_rels/.rels",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="\(typeBase)/officeDocument" Target="xl/workbook.xml"/></Relationships>
            """)
        var sheetList = ""
        var rels = ""
        for (i, sheet) in sheets.enumerated() {
            sheetList += "<sheet name=\"\(escape(sheet.name))\" sheetId=\"\(i + 1)\" r:id=\"rIdS\(i + 1)\"/>"
            rels += "<Relationship Id=\"rIdS\(i + 1)\" Type=\"\(typeBase)/worksheet\" Target=\"worksheets/\(sheet.file)\"/>"
            add(
                "xl/worksheets/\(sheet.file)",
                """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <worksheet xmlns="\(main)" xmlns:r="\(rel)"><dimension ref="A1:XFD1048576"/><sheetData>\(sheet.sheetData)</sheetData></worksheet>
                """)
        }
        if sharedStrings != nil || sharedStringsXML != nil {
            rels += "<Relationship Id=\"rIdSST\" Type=\"\(typeBase)/sharedStrings\" Target=\"sharedStrings.xml\"/>"
            let items = sharedStringsXML ?? (sharedStrings ?? []).map { "<si><t xml:space=\"preserve\">\(escape($0))</t></si>" }.joined()
            add(
                "xl/sharedStrings.xml",
                """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <sst xmlns="\(main)">\(items)</sst>
                """)
        }
        if let stylesXML {
            rels += "<Relationship Id=\"rIdStyles\" Type=\"\(typeBase)/styles\" Target=\"styles.xml\"/>"
            add(
                "xl/styles.xml",
                """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <styleSheet xmlns="\(main)">\(stylesXML)</styleSheet>
                """)
        }
        add(
            "xl/_rels/workbook.xml.rels",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\(rels)</Relationships>
            """)
        add(
            "xl/workbook.xml",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <workbook xmlns="\(main)" xmlns:r="\(rel)">\(date1904 ? "<workbookPr date1904=\"1\"/>" : "<workbookPr/>")<sheets>\(sheetList)</sheets></workbook>
            """)
        return TestWorkbook(parts: parts)
    }

    /// A one-sheet workbook whose rows are given as column → value maps: a `String` becomes an
    /// inline string, an `Int` or a `TestWorkbook.Number` a number cell.
    public static func rows(_ rows: [[Int: Any]], sheetName: String = "Sheet1") -> TestWorkbook {
        make(sheets: [(sheetName, "sheet1.xml", sheetData(rows))])
    }

    /// A number cell's exact text.
    public struct Number {
        public let text: String
        public init(_ text: String) { self.text = text }
    }

    /// An ISO 8601 date cell (`t="d"`), its value as given.
    public struct ISODate {
        public let text: String
        public init(_ text: String) { self.text = text }
    }

    /// `<row>` elements for rows given as column → value maps (rows numbered from 1).
    public static func sheetData(_ rows: [[Int: Any]]) -> String {
        var xml = ""
        for (r, row) in rows.enumerated() where !row.isEmpty {
            xml += "<row r=\"\(r + 1)\">"
            for column in row.keys.sorted() {
                let ref = columnName(column) + String(r + 1)
                switch row[column]! {
                case let text as String:
                    xml += "<c r=\"\(ref)\" t=\"inlineStr\"><is><t xml:space=\"preserve\">\(escape(text))</t></is></c>"
                case let number as Int:
                    xml += "<c r=\"\(ref)\"><v>\(number)</v></c>"
                case let number as Number:
                    xml += "<c r=\"\(ref)\"><v>\(number.text)</v></c>"
                case let date as ISODate:
                    xml += "<c r=\"\(ref)\" t=\"d\"><v>\(escape(date.text))</v></c>"
                default:
                    continue
                }
            }
            xml += "</row>"
        }
        return xml
    }

    /// `A`, `B`, …, `Z`, `AA`, … for a 0-based column.
    public static func columnName(_ column: Int) -> String { XLSXSheetWriter.columnName(column) }

    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Writes the archive to `path` (deflated entries unless `stored`).
    public func write(to path: String, stored: Bool = false) throws {
        try? FileManager.default.removeItem(atPath: path)
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, contents) in parts {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(contents.count),
                compressionMethod: stored ? .none : .deflate
            ) { position, size in
                contents.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    /// Writes the archive to a new temporary file named `name`; returns its path.
    public func writeTemporary(name: String = "workbook.xlsx", stored: Bool = false) throws -> String {
        let path = try TestKit.makeTemporaryDirectory() + "/" + name
        try write(to: path, stored: stored)
        return path
    }
}

/// Hostile and broken workbooks for tests: a reader must answer each with a clear error of its
/// own kind, in bounded time and memory.
public enum HostileWorkbooks {
    public static func sheet(_ xml: String) -> TestWorkbook {
        var book = TestWorkbook.make(sheets: [("S", "sheet1.xml", "")])
        book.parts = book.parts.map { $0.path == "xl/worksheets/sheet1.xml" ? ($0.path, Data(xml.utf8)) : $0 }
        return book
    }

    public static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\
        <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\
        <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">\
        <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;"><!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">\
        <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;"><!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>
        <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>
        """

    public static let externalEntity = """
        <?xml version="1.0"?>
        <!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
        <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&secret;</t></is></c></row></sheetData></worksheet>
        """

    /// A workbook whose sheet inflates `megabytes` MB of the same row over and over (about 1000:1).
    public static func bomb(megabytes: Int) -> TestWorkbook {
        let row = "<row><c><v>0</v></c></row>"
        let body = String(repeating: row, count: megabytes * 1_048_576 / row.utf8.count)
        return sheet("<worksheet xmlns=\"\(TestWorkbook.mainNamespace)\"><sheetData>\(body)</sheetData></worksheet>")
    }

    /// Rewrites the uncompressed size the archive's headers declare for `entry`.
    public static func declare(size: UInt32, for entry: String, in path: String) throws {
        var zip = try ZIPBytes(path: path)
        guard let (local, central) = zip.headers(of: entry) else { return }
        zip.put(Int(size), bytes: 4, at: local + 22)
        zip.put(Int(size), bytes: 4, at: central + 24)
        try zip.write(to: path)
    }

    /// An OLE compound file: the container of old `.xls` workbooks and of encrypted `.xlsx` ones.
    public static func compoundFile(encrypted: Bool) -> Data {
        var bytes: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 1016)
        let name = encrypted ? "EncryptedPackage" : "Workbook"
        bytes += name.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [UInt8](repeating: 0, count: 512)
        return Data(bytes)
    }
}

/// A ZIP archive's bytes, for tests that damage an archive in place: little-endian fields read and
/// written by offset, and where an entry's headers are.
public struct ZIPBytes {
    public var bytes: [UInt8]

    public init(path: String) throws {
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    public func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    public func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }

    /// `value` as `count` little-endian bytes.
    public static func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(value >> (8 * $0) & 0xFF) } }

    public mutating func put(_ value: Int, bytes count: Int, at: Int) {
        bytes.replaceSubrange(at..<(at + count), with: Self.le(value, count))
    }

    /// Where `entry`'s local header and its central directory record begin.
    public func headers(of entry: String) -> (local: Int, central: Int)? {
        let name = Array(entry.utf8)
        func named(_ at: Int, _ signature: Int, nameAt: Int) -> Bool {
            at + nameAt + name.count <= bytes.count && u32(at) == signature && Array(bytes[(at + nameAt)..<(at + nameAt + name.count)]) == name
        }
        guard let local = (0..<bytes.count).first(where: { named($0, 0x0403_4B50, nameAt: 30) }),
            let central = (0..<bytes.count).first(where: { named($0, 0x0201_4B50, nameAt: 46) })
        else { return nil }
        return (local, central)
    }

    public func write(to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
