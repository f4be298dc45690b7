import Foundation
import Testing
import TradeportTestKit

@testable import TradeportXLSX

@Suite("XLSX reader: hostile and broken inputs")
struct XLSXSafetyTests {
    @Test("a billion-laughs document is refused at its DTD, before any entity is expanded")
    func billionLaughs() throws {
        let path = try HostileWorkbooks.sheet(HostileWorkbooks.billionLaughs).writeTemporary()
        let error = xlsxError { _ = try readAll(path) }
        #expect(error?.kind == .unsafe)
        #expect(error?.message.contains("DTD") == true)
        #expect(error?.part == "xl/worksheets/sheet1.xml")
    }

    /// A part in an encoding libxml2 cannot convert: the error is the reader's located one, and
    /// nothing of libxml2's own reaches standard error. (Halting the parser from inside that error
    /// crashed libxml2 2.9 with a segmentation fault: found by hand under attack, kept here.)
    @Test("an encoding that cannot be converted is a located error, with nothing on standard error")
    func unconvertibleEncoding() throws {
        for encoding in ["EUC-JP", "Shift_JIS", "GB2312", "ISO-2022-JP"] {
            var book = HostileWorkbooks.sheet("")
            var xml = Data(
                #"<?xml version="1.0" encoding="\#(encoding)"?><worksheet xmlns="\#(TestWorkbook.mainNamespace)"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>"#
                    .utf8)
            xml.append(contentsOf: [0xFF, 0xFE, 0x80, 0x81, 0xFF])
            xml.append(contentsOf: Data("</t></is></c></row></sheetData></worksheet>".utf8))
            book.parts = book.parts.map { $0.path == "xl/worksheets/sheet1.xml" ? ($0.path, xml) : $0 }
            let path = try book.writeTemporary()
            let (error, stderr) = try capturingStandardError { xlsxError { _ = try readAll(path) } }
            #expect(error?.kind == .malformed, "\(encoding): \(String(describing: error))")
            #expect(error?.part == "xl/worksheets/sheet1.xml" && error?.line == 1, "\(encoding)")
            #expect(!stderr.contains("encoding error") && !stderr.contains("conversion failed"), "\(encoding): \(stderr)")
        }
    }

    @Test("an external entity is refused; nothing is read from the file system or the network")
    func externalEntity() throws {
        let path = try HostileWorkbooks.sheet(HostileWorkbooks.externalEntity).writeTemporary()
        #expect(xlsxError { _ = try readAll(path) }?.kind == .unsafe)
        let undeclared = try HostileWorkbooks.sheet("<worksheet><sheetData><row><c t=\"inlineStr\"><is><t>&nbsp;</t></is></c></row></sheetData></worksheet>")
            .writeTemporary()
        #expect(xlsxError { _ = try readAll(undeclared) } != nil)
    }

    @Test("the shared strings refuse a DTD and an undeclared entity as a sheet does; other errors are malformed XML")
    func sharedStringsRefusals() throws {
        func workbook(sharedStrings xml: String) throws -> String {
            var book = TestWorkbook.make(
                sheets: [("S", "sheet1.xml", #"<row r="1"><c r="A1" t="s"><v>0</v></c></row>"#)],
                sharedStrings: ["x"])
            book.parts = book.parts.map { $0.path == "xl/sharedStrings.xml" ? ($0.path, Data(xml.utf8)) : $0 }
            return try book.writeTemporary()
        }
        let main = TestWorkbook.mainNamespace
        let dtd = xlsxError {
            _ = try readAll(
                try workbook(
                    sharedStrings: """
                        <?xml version="1.0"?><!DOCTYPE sst [<!ENTITY e "x">]><sst xmlns="\(main)"><si><t>&e;</t></si></sst>
                        """))
        }
        #expect(dtd?.kind == .unsafe)
        #expect(dtd?.message.contains("DTD") == true)
        #expect(dtd?.part == "xl/sharedStrings.xml")
        let entity = xlsxError { _ = try readAll(try workbook(sharedStrings: "<sst xmlns=\"\(main)\"><si><t>&nbsp;</t></si></sst>")) }
        #expect(entity?.kind == .unsafe)
        let malformed = xlsxError { _ = try readAll(try workbook(sharedStrings: "<sst xmlns=\"\(main)\"><si><t>a &amp b</t></si></sst>")) }
        #expect(malformed?.kind == .malformed)
        #expect(malformed?.message.hasPrefix("not well-formed XML") == true)
    }

    @Test("a ZIP bomb is refused from its declared ratio, before inflating")
    func bombByDeclaredRatio() throws {
        let path = try HostileWorkbooks.bomb(megabytes: 64).writeTemporary()
        let error = xlsxError { _ = try readAll(path) }
        #expect(error?.kind == .unsafe)
        #expect(error?.message.contains("times its compressed size") == true)
    }

    @Test("a ZIP bomb that lies about its size is stopped as soon as it passes what it declared")
    func bombThatLies() throws {
        let path = try HostileWorkbooks.bomb(megabytes: 64).writeTemporary()
        try HostileWorkbooks.declare(size: 1000, for: "xl/worksheets/sheet1.xml", in: path)
        let error = xlsxError { _ = try readAll(path) }
        #expect(error?.kind == .corruptArchive)
        #expect(error?.message.contains("more bytes than its header declares") == true)
    }

    @Test("limits on the inflated size and ratio apply while inflating")
    func limitsWhileInflating() throws {
        let path = try HostileWorkbooks.bomb(megabytes: 4).writeTemporary()
        let small = XLSXLimits(maxEntryBytes: 1 << 20)
        #expect(xlsxError { _ = try readAll(path, limits: small) }?.message.contains("over the limit") == true)
        let tight = XLSXLimits(maxRatio: 10, ratioGrace: 1 << 16)
        #expect(xlsxError { _ = try readAll(path, limits: tight) }?.kind == .unsafe)
    }

    @Test("a truncated archive and a damaged entry are clear errors")
    func truncatedAndDamaged() throws {
        let rows = (1...2000).map { "<row r=\"\($0)\"><c t=\"inlineStr\"><is><t>row \($0) \(UUID().uuidString)</t></is></c></row>" }.joined()
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", rows)]).writeTemporary()
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))

        let truncated = path + ".truncated.xlsx"
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: truncated))
        let t = xlsxError { _ = try readAll(truncated) }
        #expect(t?.kind == .corruptArchive)
        #expect(t?.message.contains("truncated or corrupt") == true)

        // Flip bytes in the middle of the sheet's compressed data.
        var damaged = try ZIPBytes(path: path)
        let local = try #require(damaged.headers(of: "xl/worksheets/sheet1.xml")).local
        let start = local + 30 + damaged.u16(local + 26)
        for k in stride(from: start + 2000, to: start + 2100, by: 7) { damaged.bytes[k] ^= 0x5A }
        let d = try readingError(damaged, path + ".damaged.xlsx")
        #expect(d?.kind == .corruptArchive || d?.kind == .malformed)
    }

    /// ZIPFoundation (on Linux) reads an entry until it has its bytes and never stops when the
    /// file ends first: found by the workbook fuzzer as a hang (a cut Tinkoff report whose central
    /// directory said its sheet took 23 MB of the file's 163 KB).
    static let sheetRows = (1...200).map { "<row r=\"\($0)\"><c t=\"inlineStr\"><is><t>row \($0)</t></is></c></row>" }.joined()

    /// The error reading the damaged archive `zip`, written to `path`, ends with.
    private func readingError(_ zip: ZIPBytes, _ path: String) throws -> XLSXError? {
        try zip.write(to: path)
        return xlsxError { _ = try readAll(path) }
    }

    @Test("an entry whose data runs past the end of the file is refused at once, not read for ever", arguments: [false, true])
    func entryPastTheEndOfTheFile(stored: Bool) throws {
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", Self.sheetRows)]).writeTemporary(stored: stored)
        var zip = try ZIPBytes(path: path)
        let size = zip.bytes.count + 1000
        let (local, central) = try #require(zip.headers(of: "xl/worksheets/sheet1.xml"))
        zip.put(size, bytes: 4, at: local + 18)  // compressed size
        zip.put(size, bytes: 4, at: central + 20)
        if stored {
            zip.put(size, bytes: 4, at: local + 22)
            zip.put(size, bytes: 4, at: central + 24)
        }
        let error = try readingError(zip, path + ".cut.xlsx")
        #expect(error?.kind == .corruptArchive)
        #expect(error?.message.contains("runs past the end of the file") == true, "\(String(describing: error))")
    }

    /// The hang itself: a deflate stream that the file ends inside, its bytes so far a good start
    /// of a sheet (a stored block of 65,535 bytes holding half the sheet's XML, as the last bytes of
    /// the file, in the archive's comment). ZIPFoundation read at the file's end for ever.
    @Test("a deflate stream the file ends inside is refused, not read for ever")
    func deflateStreamCutByTheFileEnd() throws {
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", Self.sheetRows)]).writeTemporary(stored: true)
        var zip = try ZIPBytes(path: path)
        let eocd = zip.bytes.count - 22
        #expect(zip.u32(eocd) == 0x0605_4B50)
        let name = "xl/worksheets/sheet1.xml"
        let (local, central) = try #require(zip.headers(of: name))
        let dataStart = local + 30 + zip.u16(local + 26) + zip.u16(local + 28)
        let xml = Array(zip.bytes[dataStart..<(dataStart + zip.u32(local + 22))])
        let half = Array(xml.prefix(xml.count / 2))
        // The new local header: deflate, no extra field, the data a stored block cut by the file's end.
        let payload = [0x00, 0xFF, 0xFF, 0x00, 0x00] + half
        var header = Array(zip.bytes[local..<(local + 30)])
        header.replaceSubrange(8..<10, with: ZIPBytes.le(8, 2))
        header.replaceSubrange(18..<22, with: ZIPBytes.le(payload.count, 4))
        header.replaceSubrange(28..<30, with: ZIPBytes.le(0, 2))
        let tail = header + Array(name.utf8) + payload
        // Its central directory record: deflate, that compressed size, the header in the comment.
        zip.put(8, bytes: 2, at: central + 10)
        zip.put(payload.count, bytes: 4, at: central + 20)
        zip.put(zip.bytes.count, bytes: 4, at: central + 42)
        zip.put(tail.count, bytes: 2, at: eocd + 20)
        zip.bytes += tail
        let error = try readingError(zip, path + ".unended.xlsx")
        #expect(error?.kind == .corruptArchive)
        #expect(error?.message.contains("ends before its stream does") == true, "\(String(describing: error))")
    }

    @Test("entries are placed by the central directory read here, not by reflection on ZIPFoundation's: a comment and bytes after the archive are let be")
    func entriesPlacedByTheCentralDirectory() throws {
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", Self.sheetRows)]).writeTemporary()
        let expected = try readAll(path)
        #expect(expected.count == 200)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let records = try #require(XLSXPackage.centralDirectory(fd, size: UInt64(size)))
        let zip = try ZIPBytes(path: path)
        let (local, central) = try #require(zip.headers(of: "xl/worksheets/sheet1.xml"))
        #expect(records.contains { Int($0.localHeader) == local && Int($0.crc) == zip.u32(central + 16) })

        // A comment, then bytes after the end-of-directory record.
        var commented = zip
        let eocd = commented.bytes.count - 22
        let comment = Array("exported by a test".utf8)
        commented.put(comment.count, bytes: 2, at: eocd + 20)
        commented.bytes += comment + [0x00, 0x01, 0x02]
        try commented.write(to: path + ".commented.xlsx")
        #expect(try readAll(path + ".commented.xlsx").map(\.0) == expected.map(\.0))

    }

    @Test("not a workbook: text, an empty file, a ZIP without a workbook, an old .xls, an encrypted workbook")
    func notWorkbooks() throws {
        let text = try TestKit.writeTemporaryFile("Date;Amount\n2021-01-01;5\n", name: "report.xlsx")
        let e1 = xlsxError { _ = try XLSXWorkbook(path: text) }
        #expect(e1?.kind == .notAWorkbook)
        #expect(e1?.message.contains("ZIP archive") == true)
        #expect(xlsxError { _ = try XLSXWorkbook(path: try TestKit.writeTemporaryFile("", name: "e.xlsx")) }?.kind == .notAWorkbook)

        let document = TestWorkbook(parts: [("word/document.xml", Data("<document/>".utf8))])
        let e3 = xlsxError { _ = try XLSXWorkbook(path: try document.writeTemporary(name: "letter.docx")) }
        #expect(e3?.kind == .notAWorkbook)
        #expect(e3?.message.contains("without a workbook part") == true)

        let legacy = try TestKit.writeTemporaryFile(HostileWorkbooks.compoundFile(encrypted: false), name: "old.xls")
        #expect(xlsxError { _ = try XLSXWorkbook(path: legacy) }?.kind == .legacyExcel)
        let encrypted = try TestKit.writeTemporaryFile(HostileWorkbooks.compoundFile(encrypted: true), name: "secret.xlsx")
        let e5 = xlsxError { _ = try XLSXWorkbook(path: encrypted) }
        #expect(e5?.kind == .encrypted)
        #expect(e5?.message.contains("password") == true)

        // The same answers from the first bytes alone, without opening the file as a workbook.
        func problem(_ path: String, withPath: Bool = true) throws -> XLSXError? {
            let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(8))
            return XLSXWorkbook.signatureProblem(head: head, path: withPath ? path : nil)
        }
        #expect(try problem(try document.writeTemporary(name: "any.zip")) == nil)
        #expect(try problem(text) == e1)
        #expect(try problem(legacy)?.kind == .legacyExcel)
        #expect(try problem(encrypted) == e5)
        #expect(try problem(encrypted, withPath: false)?.kind == .legacyExcel)
        #expect(XLSXWorkbook.signatureProblem(head: [], path: nil)?.message.contains("empty") == true)
    }
}

@Suite("XLSX reader: sheets that are not what they claim")
struct XLSXSheetShapeTests {
    @Test("a row inside a row, a part that is not a worksheet, a reference to row 0, and an oversized cell are errors")
    func shapes() throws {
        let nested = try TestWorkbook.make(sheets: [("S", "sheet1.xml", "<row r=\"1\"><c><v>1</v></c><row r=\"2\"/></row>")]).writeTemporary()
        #expect(xlsxError { _ = try readAll(nested) }?.message.contains("<row> inside a <row>") == true)

        let notSheet = try HostileWorkbooks.sheet("<chartsheet xmlns=\"\(TestWorkbook.mainNamespace)\"/>").writeTemporary()
        #expect(xlsxError { _ = try readAll(notSheet) }?.message.contains("not a <worksheet>") == true)

        let rowZero = try TestWorkbook.make(sheets: [("S", "sheet1.xml", "<row r=\"1\"><c r=\"A0\"><v>1</v></c></row>")]).writeTemporary()
        #expect(xlsxError { _ = try readAll(rowZero) }?.message.contains("'A0'") == true)

        let big = String(repeating: "x", count: 1_100_000)
        let huge = try TestWorkbook.make(sheets: [("S", "sheet1.xml", "<row r=\"1\"><c t=\"inlineStr\"><is><t>\(big)</t></is></c></row>")]).writeTemporary()
        #expect(xlsxError { _ = try readAll(huge) }?.message.contains("more than 1048576 bytes") == true)
    }

    @Test("a lone surrogate escape becomes U+FFFD; a pair becomes its character")
    func surrogates() throws {
        let data = "<row r=\"1\"><c t=\"inlineStr\"><is><t>a_xD800_b_xD83D__xDE00_c</t></is></c></row>"
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", data)]).writeTemporary()
        #expect(try readAll(path).first?.1.first?.text == "a\u{FFFD}b😀c")

        // A high half followed by what starts like a low half's escape but is not one (found by
        // the sheet-parser fuzzer): the high half is U+FFFD, the rest stays as written.
        let broken = "<row r=\"1\"><c t=\"inlineStr\"><is><t>a_xD83D__xDCZZ_b</t></is></c></row>"
        let brokenPath = try TestWorkbook.make(sheets: [("S", "sheet1.xml", broken)]).writeTemporary()
        #expect(try readAll(brokenPath).first?.1.first?.text == "a\u{FFFD}_xDCZZ_b")
    }

    @Test("rows without `r` count on from the last, and not past row 1048576")
    func rowsWithoutNumbers() throws {
        let counted = try TestWorkbook.make(sheets: [("S", "sheet1.xml", "<row r=\"7\"><c><v>1</v></c></row><row><c><v>2</v></c></row>")]).writeTemporary()
        #expect(try readAll(counted).map(\.0) == [7, 8])

        let last = try TestWorkbook.make(sheets: [("S", "sheet1.xml", "<row r=\"1048576\"><c><v>1</v></c></row>")]).writeTemporary()
        #expect(try readAll(last).map(\.0) == [1_048_576])

        let past = try TestWorkbook.make(sheets: [("S", "sheet1.xml", "<row r=\"1048576\"><c><v>1</v></c></row><row><c><v>2</v></c></row>")]).writeTemporary()
        #expect(xlsxError { _ = try readAll(past) }?.message.contains("past row 1048576") == true)
    }
}

/// Runs `body` with standard error sent to a file, and gives back what was written there.
func capturingStandardError<T>(_ body: () throws -> T) throws -> (T, String) {
    let path = NSTemporaryDirectory() + "tradeport-stderr-\(UUID().uuidString)"
    let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    defer { unlink(path) }
    fflush(nil)
    let saved = dup(2)
    dup2(file, 2)
    let result: T
    do {
        result = try body()
    } catch {
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        close(file)
        throw error
    }
    fflush(nil)
    dup2(saved, 2)
    close(saved)
    close(file)
    return (result, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
}
