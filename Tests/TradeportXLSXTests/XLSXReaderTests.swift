import Foundation
import Testing
import TradeportTestKit

@testable import TradeportXLSX

/// Rows of a sheet as plain values, for comparing whole results.
struct ReadCell: Equatable, CustomStringConvertible {
    let column: Int
    let kind: XLSXCell.Kind
    let text: String
    var description: String { "\(column):\(kind):\(text)" }
}

func readAll(_ path: String, sheet: String? = nil, limits: XLSXLimits = .default) throws -> [(Int, [ReadCell])] {
    let workbook = try XLSXWorkbook(path: path, limits: limits)
    let target = try sheet.map { try workbook.sheet(named: $0) } ?? workbook.sheet(at: 0)
    var rows: [(Int, [ReadCell])] = []
    try workbook.readRows(of: target) { row in
        rows.append((row.number, row.cells.map { ReadCell(column: $0.column, kind: $0.kind, text: $0.text) }))
        return true
    }
    return rows
}

func xlsxError(_ body: () throws -> Void) -> XLSXError? {
    do {
        try body()
        return nil
    } catch let error as XLSXError {
        return error
    } catch {
        Issue.record("expected an XLSXError, got \(error)")
        return nil
    }
}

@Suite("XLSX reader: structure")
struct XLSXStructureTests {
    @Test("sheets are found through workbook.xml and its relationships, by name or index")
    func sheetsThroughRelationships() throws {
        let book = TestWorkbook.make(sheets: [
            ("Summary", "zeta.xml", #"<row r="1"><c r="A1" t="inlineStr"><is><t>first</t></is></c></row>"#),
            ("broker_rep", "alpha.xml", #"<row r="1"><c r="B1" t="inlineStr"><is><t>second</t></is></c></row>"#)
        ])
        let path = try book.writeTemporary()
        let workbook = try XLSXWorkbook(path: path)
        #expect(workbook.sheets.map(\.name) == ["Summary", "broker_rep"])
        #expect(workbook.sheets.map(\.part) == ["xl/worksheets/zeta.xml", "xl/worksheets/alpha.xml"])
        #expect(try readAll(path, sheet: "broker_rep").first?.1 == [ReadCell(column: 1, kind: .string, text: "second")])
        #expect(try readAll(path, sheet: "BROKER_REP").first?.1.first?.text == "second")
        #expect(try readAll(path).first?.1.first?.text == "first")
        let missing = xlsxError { _ = try workbook.sheet(named: "Trades") }
        #expect(missing?.kind == .noSuchSheet)
        #expect(missing?.message.contains("'Summary', 'broker_rep'") == true)
        #expect(xlsxError { _ = try workbook.sheet(at: 2) }?.kind == .noSuchSheet)
    }

    @Test("every cell type: shared (rich text joined, phonetic left out), inline, str, b, e, n, d")
    func cellTypes() throws {
        let sst =
            #"<si><t>plain</t></si><si><r><rPr><b/></rPr><t>rich </t></r><r><t>text</t></r><rPh sb="0" eb="1"><t>PHONETIC</t></rPh></si><si><t>line_x000D_break</t></si><si><t></t></si>"#
        let data = """
            <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c>\
            <c r="E1" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c><c r="F1" t="str"><f>A1&amp;"x"</f><v>plainx</v></c>\
            <c r="G1" t="b"><v>1</v></c><c r="H1" t="e"><v>#DIV/0!</v></c><c r="I1"><v>0.1</v></c><c r="J1" t="n"><v>1.5E-3</v></c>\
            <c r="K1" t="d"><v>2021-01-01T00:00:00</v></c><c r="L1" s="0"/><c r="M1"><v>12345678901234567890.123456789</v></c></row>
            """
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", data)], sharedStringsXML: sst).writeTemporary()
        let rows = try readAll(path)
        #expect(rows.count == 1)
        #expect(
            rows[0].1 == [
                ReadCell(column: 0, kind: .string, text: "plain"),
                ReadCell(column: 1, kind: .string, text: "rich text"),
                ReadCell(column: 2, kind: .string, text: "line\rbreak"),
                ReadCell(column: 4, kind: .string, text: "inline"),
                ReadCell(column: 5, kind: .string, text: "plainx"),
                ReadCell(column: 6, kind: .boolean, text: "1"),
                ReadCell(column: 7, kind: .error, text: "#DIV/0!"),
                ReadCell(column: 8, kind: .number, text: "0.1"),
                ReadCell(column: 9, kind: .number, text: "1.5E-3"),
                ReadCell(column: 10, kind: .isoDate, text: "2021-01-01T00:00:00"),
                ReadCell(column: 12, kind: .number, text: "12345678901234567890.123456789")
            ])
    }

    @Test("sparse rows and cells, rows and cells without r, a dimension that lies")
    func sparseAndImplicit() throws {
        let data = """
            <row r="3"><c r="C3"><v>1</v></c><c><v>2</v></c><c r="Z3"><v>3</v></c></row>\
            <row><c><v>4</v></c></row><row r="10" spans="1:3"></row><row r="11"><c r="A11" t="inlineStr"><is><t></t></is></c></row>\
            <row r="20"><c r="XFD20"><v>5</v></c></row>
            """
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", data)]).writeTemporary()
        let rows = try readAll(path)
        #expect(rows.map(\.0) == [3, 4, 20])
        #expect(rows[0].1.map(\.column) == [2, 3, 25])
        #expect(rows[1].1 == [ReadCell(column: 0, kind: .number, text: "4")])
        #expect(rows[2].1 == [ReadCell(column: 16_383, kind: .number, text: "5")])
    }

    @Test("prefixed and Strict OOXML namespaces read alike")
    func namespaces() throws {
        let strict = TestWorkbook.make(
            sheets: [("S", "sheet1.xml", #"<row r="1"><c r="A1" t="inlineStr"><is><t>strict</t></is></c></row>"#)], strict: true)
        #expect(try readAll(try strict.writeTemporary()).first?.1.first?.text == "strict")

        let sheet = """
            <?xml version="1.0" encoding="UTF-8"?>
            <x:worksheet xmlns:x="\(TestWorkbook.mainNamespace)"><x:sheetData><x:row r="2"><x:c r="B2" t="inlineStr"><x:is><x:t>prefixed</x:t></x:is></x:c><x:c r="C2"><x:v>7</x:v></x:c></x:row></x:sheetData></x:worksheet>
            """
        let rows = try readAll(try HostileWorkbooks.sheet(sheet).writeTemporary())
        #expect(rows.first?.0 == 2)
        #expect(rows.first?.1 == [ReadCell(column: 1, kind: .string, text: "prefixed"), ReadCell(column: 2, kind: .number, text: "7")])
    }

    @Test("a stored (uncompressed) archive reads too, and a reader may stop early")
    func storedAndEarlyStop() throws {
        let data = (1...100).map { "<row r=\"\($0)\"><c><v>\($0)</v></c></row>" }.joined()
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", data)]).writeTemporary(stored: true)
        let workbook = try XLSXWorkbook(path: path)
        var seen: [Int] = []
        try workbook.readRows(of: workbook.sheets[0]) { row in
            seen.append(row.number)
            return row.number < 3
        }
        #expect(seen == [1, 2, 3])
        #expect(try readAll(path).count == 100)
    }

    /// What reading every row of a workbook's first sheet gives, with sheets up to `inline` bytes
    /// read on the calling thread: the rows, or the error, and the rows before it.
    func reading(_ path: String, inline: Int, stopAfter: Int = .max, failAt: Int? = nil) -> (rows: [String], error: String?) {
        struct Failure: Error, CustomStringConvertible { let description: String }
        var rows: [String] = []
        do {
            let workbook = try XLSXWorkbook(path: path)
            workbook.inlineSheetBytes = inline
            try workbook.readRows(of: workbook.sheets[0]) { row in
                if row.number == failAt { throw Failure(description: "the body failed at row \(row.number)") }
                rows.append("\(row.number): " + row.cells.map { "\($0.column):\($0.kind):\($0.text)" }.joined(separator: " "))
                return rows.count < stopAfter
            }
            return (rows, nil)
        } catch {
            return (rows, "\(error)")
        }
    }

    @Test("a sheet reads alike on the calling thread and on two threads of its own: rows, early stops, the body's errors and the sheet's")
    func inlineAndThreadedAlike() throws {
        // Over three batches of rows, shared strings and every kind of cell.
        let rows = (1...1_300).map { n in
            #"<row r="\#(n)"><c r="A\#(n)" t="s"><v>\#(n % 3)</v></c><c r="B\#(n)"><v>\#(n).25</v></c>"#
                + #"<c r="C\#(n)" t="inlineStr"><is><t>row \#(n)</t></is></c><c r="D\#(n)" t="b"><v>\#(n % 2)</v></c></row>"#
        }.joined()
        let good = try TestWorkbook.make(sheets: [("S", "sheet1.xml", rows)], sharedStrings: ["a", "b", "c"]).writeTemporary()
        // Malformed after 700 good rows; a bad shared-string index at row 900.
        let broken = try TestWorkbook.make(
            sheets: [("S", "sheet1.xml", rows.prefix(70_000) + "<row><c><v>1</v></row>")],
            sharedStrings: ["a", "b", "c"]
        ).writeTemporary()
        let badIndex = try TestWorkbook.make(
            sheets: [("S", "sheet1.xml", rows.replacingOccurrences(of: #"<c r="A900" t="s"><v>0</v>"#, with: #"<c r="A900" t="s"><v>9</v>"#))],
            sharedStrings: ["a", "b", "c"]
        ).writeTemporary()
        for (path, stopAfter, failAt) in [
            (good, Int.max, nil), (good, 3, nil), (good, 600, nil), (good, Int.max, 1_024),
            (broken, Int.max, nil), (badIndex, Int.max, nil), (badIndex, 10, nil)
        ] as [(String, Int, Int?)] {
            let inline = reading(path, inline: 1 << 30, stopAfter: stopAfter, failAt: failAt)
            let threaded = reading(path, inline: 0, stopAfter: stopAfter, failAt: failAt)
            #expect(inline.rows == threaded.rows, "stop after \(stopAfter), fail at \(failAt.map(String.init) ?? "none")")
            #expect(inline.error == threaded.error)
        }
        #expect(reading(good, inline: 1 << 30).rows.count == 1_300)
        #expect(reading(good, inline: 1 << 30, stopAfter: 600).rows.count == 600)
        #expect(reading(good, inline: 1 << 30, failAt: 1_024).error == "the body failed at row 1024")
        #expect(reading(broken, inline: 1 << 30).error?.contains("not a well-formed sheet") == true)
        #expect(reading(badIndex, inline: 1 << 30).error?.contains("shared string index '9'") == true)
    }

    @Test("a sheet its scanner gives up on part-way is read again by libxml2 from the start, each row handed over once")
    func scannerGivesUp() throws {
        let rows = (1...1_300).map { n in
            #"<row r="\#(n)"><c r="A\#(n)" t="s"><v>\#(n % 3)</v></c><c r="B\#(n)"><v>\#(n).25</v></c>"#
                + #"<c r="C\#(n)" t="inlineStr"><is><t>row &amp; \#(n)</t></is></c></row>"#
        }
        func book(_ rows: [String]) throws -> String {
            try TestWorkbook.make(sheets: [("S", "sheet1.xml", rows.joined())], sharedStrings: ["a", "b", "c"]).writeTemporary()
        }
        let plain = try book(rows)
        var commented = rows
        commented[1_099] += "<!-- two batches of 512 rows were handed over before this -->"
        var cdata = rows
        cdata[1_199] = cdata[1_199].replacingOccurrences(of: "<t>row &amp; 1200</t>", with: "<t><![CDATA[row & 1200]]></t>")
        var brokenLate = commented
        brokenLate[1_249] = "<row><c><v>1</v></row>"
        var badIndexLate = commented
        badIndexLate[1_248] = badIndexLate[1_248].replacingOccurrences(of: #"t="s"><v>1</v>"#, with: #"t="s"><v>7</v>"#)
        #expect(badIndexLate[1_248].contains("<v>7</v>"))
        let expected = reading(plain, inline: 1 << 30).rows
        #expect(expected.count == 1_300)
        #expect(expected[1_199].contains("row & 1200"))
        for path in [try book(commented), try book(cdata)] {
            for inline in [1 << 30, 0] {
                let read = reading(path, inline: inline)
                #expect(read.error == nil)
                #expect(read.rows == expected, "inline \(inline)")
                #expect(reading(path, inline: inline, stopAfter: 1_150).rows == Array(expected.prefix(1_150)))
            }
        }
        // Errors after the scanner gave up are libxml2's, with their lines, after the rows before them.
        for (path, message) in [(try book(brokenLate), "not a well-formed sheet"), (try book(badIndexLate), "shared string index '7'")] {
            for inline in [1 << 30, 0] {
                let read = reading(path, inline: inline)
                #expect(read.error?.contains(message) == true, "\(read.error ?? "no error")")
                #expect(read.rows == Array(expected.prefix(read.rows.count)))
                #expect(read.rows.count < 1_249)
            }
        }
    }

    @Test("a malformed sheet names its part and line; a bad shared-string index and a bad reference are errors")
    func malformed() throws {
        let broken = try TestWorkbook.make(sheets: [("S", "sheet1.xml", "<row r=\"1\"><c><v>1</v></row>")]).writeTemporary()
        let e = xlsxError { _ = try readAll(broken) }
        #expect(e?.kind == .malformed)
        #expect(e?.part == "xl/worksheets/sheet1.xml")
        #expect(e?.line != nil)

        let badIndex = try TestWorkbook.make(
            sheets: [("S", "sheet1.xml", #"<row r="1"><c r="A1" t="s"><v>5</v></c></row>"#)],
            sharedStrings: ["only"]
        ).writeTemporary()
        #expect(xlsxError { _ = try readAll(badIndex) }?.message.contains("shared string index '5'") == true)
        let badRef = try TestWorkbook.make(sheets: [("S", "sheet1.xml", #"<row r="1"><c r="1A"><v>5</v></c></row>"#)]).writeTemporary()
        #expect(xlsxError { _ = try readAll(badRef) }?.message.contains("cell reference '1A'") == true)
    }
}

@Suite("XLSX reader: numbers and dates")
struct XLSXValueTests {
    @Test("numbers are handed over as exact text; scientific notation expands by hand")
    func plainNumbers() {
        func plain(_ s: String) -> String? { Array(s.utf8).withUnsafeBytes { XLSXNumber.plain($0) } }
        #expect(plain("1.5E-3") == "0.0015")
        #expect(plain("-2E+05") == "-200000")
        #expect(plain("1.2345e2") == "123.45")
        #expect(plain("0.30000000000000004") == "0.30000000000000004")
        #expect(plain("007.50") == "7.5")
        #expect(plain("-0") == "0")
        #expect(plain("1E-20") == "0.00000000000000000001")
        #expect(plain("12a") == nil)
        #expect(plain("1,5") == nil)
        #expect(plain("") == nil)
        #expect(plain("1E") == nil)
        #expect(plain("0.000") == "0")
        #expect(plain(".5") == "0.5")
    }

    @Test("a number cell's double, read as the 15 significant digits it holds, by decimal rounding")
    func fifteenDigits() {
        func number(_ s: String) -> String? { Array(s.utf8).withUnsafeBytes { XLSXNumber.plain($0, significantDigits: 15) } }
        #expect(number("9379.450000000001") == "9379.45")
        #expect(number("8345.379999999999") == "8345.38")
        #expect(number("0.30000000000000004") == "0.3")
        #expect(number("999999999999999.5") == "1000000000000000")
        #expect(number("-0.1234567890123456") == "-0.123456789012346")
        #expect(number("1.5E-3") == "0.0015")
        #expect(number("12345678901234567890") == "12345678901234600000")
        #expect(number("0.000000000000000000012345") == "0.000000000000000000012345")
        #expect(number("10000") == "10000")
    }

    @Test("numbers already plain are handed over as the cell's own bytes; others are written out, as plain makes them")
    func plainBytes() {
        func withPlain(_ s: String, _ digits: Int? = nil) -> (text: String?, own: Bool) {
            Array(s.utf8).withUnsafeBytes { cell in
                var own = false
                let text = XLSXNumber.withPlain(cell, significantDigits: digits) { plain -> String in
                    own = plain.baseAddress == cell.baseAddress
                    return String(decoding: plain, as: UTF8.self)
                }
                return (text, own)
            }
        }
        for s in ["0", "7", "-7", "1234.5", "-0.25", "0.001", "123456789012345", "0.000123456789012345", "-98765.4321"] {
            #expect(withPlain(s, 15) == (s, true), "\(s)")
        }
        let slow: [(String, String?)] = [
            (".5", "0.5"), ("+3", "3"), ("-0", "0"), ("007.50", "7.5"), ("5.", "5"), ("0.10", "0.1"), ("1.0", "1"), ("00", "0"),
            ("-.5", "-0.5"), ("1234567890123456", "1234567890123460"), ("0.0001234567890123456", "0.000123456789012346"),
            ("1.5E-3", "0.0015"), ("9.99999999999999999E2", "1000"), ("1e", nil), ("-", nil), ("", nil), (" 1", nil)
        ]
        for (s, plain) in slow {
            let result = withPlain(s, 15)
            #expect(result.text == plain, "\(s)")
            #expect(!result.own, "\(s)")
        }
        // Without a digit limit, every length stays plain.
        #expect(withPlain("12345678901234567890.123456789") == ("12345678901234567890.123456789", true))
    }

    @Test("plain forms agree with the reference algorithm on many generated numbers")
    func plainAgreesWithReference() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["", "0", "00", "1", "9", "10", "99", "120", "5", "000123", "999999999", "100000000000000000", "4"]
        for _ in 0..<20_000 {
            var s = ["", "", "-", "+"].randomElement(using: &generator)!
            s += pieces.randomElement(using: &generator)!
            if Bool.random(using: &generator) { s += "." + pieces.randomElement(using: &generator)! }
            if Int.random(in: 0..<4, using: &generator) == 0 {
                s += ["E", "e"].randomElement(using: &generator)! + ["", "-", "+"].randomElement(using: &generator)!
                s += String(Int.random(in: 0..<30, using: &generator))
            }
            for digits in [nil, 15, 3] {
                let ours = Array(s.utf8).withUnsafeBytes { XLSXNumber.plain($0, significantDigits: digits) }
                #expect(ours == ReferenceNumber.plain(Array(s.utf8), significantDigits: digits), "\(s) \(String(describing: digits))")
            }
        }
    }

    @Test("date styles: built-in 14–22 and 45–47, custom date codes; not numbers, text or General")
    func dateStyles() throws {
        let styles = """
            <numFmts count="4"><numFmt numFmtId="164" formatCode="DD.MM.YYYY"/><numFmt numFmtId="165" formatCode="#,##0.00&quot; руб.&quot;"/>\
            <numFmt numFmtId="166" formatCode="[h]:mm:ss"/><numFmt numFmtId="167" formatCode="[Red]0.00;[Blue]-0.00"/></numFmts>\
            <cellXfs count="9"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="22"/><xf numFmtId="46"/><xf numFmtId="164"/>\
            <xf numFmtId="165"/><xf numFmtId="166"/><xf numFmtId="167"/><xf numFmtId="4"/></cellXfs>
            """
        let cells = (0..<9).map { "<c r=\"\(TestWorkbook.columnName($0))1\" s=\"\($0)\"><v>44197.5</v></c>" }.joined()
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", "<row r=\"1\">\(cells)</row>")], stylesXML: styles).writeTemporary()
        let kinds = try readAll(path)[0].1.map(\.kind)
        #expect(kinds == [.number, .date, .date, .date, .date, .number, .date, .number, .number])
    }

    @Test("serials in the 1900 system (phantom 29 Feb 1900) and the 1904 system, to the nearest second")
    func serials() {
        func date(_ s: String, _ system: XLSXWorkbook.DateSystem = .from1900) -> String? {
            Array(s.utf8).withUnsafeBytes { XLSXDateTime(serial: $0, system: system)?.description }
        }
        #expect(date("1") == "1900-01-01T00:00:00")
        #expect(date("59") == "1900-02-28T00:00:00")
        #expect(date("60") == nil)
        #expect(date("61") == "1900-03-01T00:00:00")
        #expect(date("44197") == "2021-01-01T00:00:00")
        #expect(date("44197.5") == "2021-01-01T12:00:00")
        #expect(date("44197.99999") == "2021-01-01T23:59:59")
        #expect(date("44197.9999999") == "2021-01-02T00:00:00")
        #expect(date("0.333333333333") == "1899-12-31T08:00:00")
        #expect(date("4.41975E4") == "2021-01-01T12:00:00")
        #expect(date("-1") == nil)
        #expect(date("0", .from1904) == "1904-01-01T00:00:00")
        #expect(date("42735", .from1904) == "2021-01-01T00:00:00")
    }

    @Test("a workbook in the 1904 date system says so")
    func system1904() throws {
        let path = try TestWorkbook.make(sheets: [("S", "sheet1.xml", "")], date1904: true).writeTemporary()
        #expect(try XLSXWorkbook(path: path).dateSystem == .from1904)
    }
}

/// The plain-number algorithm as it was first written (arrays, string concatenation): what the
/// byte-level one must agree with.
enum ReferenceNumber {
    static func plain(_ bytes: [UInt8], significantDigits: Int? = nil) -> String? {
        var i = 0
        let n = bytes.count
        var negative = false
        if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var digits: [UInt8] = []
        var pointPosition: Int?
        var sawDigit = false
        while i < n {
            let c = bytes[i]
            if c >= 48 && c <= 57 {
                sawDigit = true
                if !(c == 48 && digits.isEmpty && pointPosition == nil) { digits.append(c) }
            } else if c == UInt8(ascii: "."), pointPosition == nil {
                pointPosition = digits.count
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if i < n, bytes[i] == UInt8(ascii: "E") || bytes[i] == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var sawExponentDigit = false
            while i < n, bytes[i] >= 48, bytes[i] <= 57 {
                exponent = exponent * 10 + Int(bytes[i] - 48)
                guard exponent <= 400 else { return nil }
                sawExponentDigit = true
                i += 1
            }
            guard sawExponentDigit else { return nil }
            if expNegative { exponent = -exponent }
        }
        guard i == n else { return nil }
        var point = (pointPosition ?? digits.count) + exponent
        while digits.first == 48 {
            digits.removeFirst()
            point -= 1
        }
        if digits.isEmpty { return "0" }
        if let significantDigits, digits.count > significantDigits {
            let roundUp = digits[significantDigits] >= 53
            digits.removeSubrange(significantDigits...)
            if roundUp {
                var k = digits.count - 1
                while k >= 0 && digits[k] == 57 {
                    digits[k] = 48
                    k -= 1
                }
                if k >= 0 {
                    digits[k] += 1
                } else {
                    digits.insert(49, at: 0)
                    point += 1
                }
            }
        }
        var out: [UInt8]
        if point <= 0 {
            out = [48, UInt8(ascii: ".")] + [UInt8](repeating: 48, count: -point) + digits
        } else if point >= digits.count {
            out = digits + [UInt8](repeating: 48, count: point - digits.count)
        } else {
            out = Array(digits[0..<point]) + [UInt8(ascii: ".")] + Array(digits[point...])
        }
        if out.contains(UInt8(ascii: ".")) {
            while out.last == 48 { out.removeLast() }
            if out.last == UInt8(ascii: ".") { out.removeLast() }
        }
        if out.allSatisfy({ $0 == 48 || $0 == UInt8(ascii: ".") }) { return "0" }
        return (negative ? "-" : "") + String(decoding: out, as: UTF8.self)
    }
}
