import Crypto
import Foundation
import Testing
import TradeportCore
import ZIPFoundation

/// The bytes `convert --to csv` and `--to xlsx` write are pinned: the examples' CSV and sheet XML
/// as files, the real exports' by SHA-256 (recorded at 2689952, before the sinks were rewritten to
/// share one column mapping and write bytes directly; re-recorded when the trade gained the bond
/// columns `pricePercent` and `nominal` and the Tinkoff trades stopped adding the exchange and
/// clearing fees the broker's fee includes; again when the movement kind added the columns
/// `direction` and `reason`, and the Tinkoff sample its one movement).
@Suite("tradeport's own CSV and XLSX: the bytes written")
struct OwnLayoutGoldenTests {
    static let examples = ["formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv"]
    static let real = ["../shared/samples/dsx-trades.csv", "../shared/samples/dsx-transactions.csv", "../shared/samples/tinkoff-broker-report.xlsx"]
    static var haveReal: Bool { FileManager.default.fileExists(atPath: CLI.repositoryRoot + "/../shared/samples/dsx-trades.csv") }

    func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    /// The worksheet part of the workbook `convert --to xlsx` writes.
    func sheet(_ inputs: [String]) throws -> Data {
        let path = try CLI.temporaryDirectory() + "/ops.xlsx"
        let r = try CLI.run(["convert", "--split-accounts"] + inputs + ["--to", "xlsx", "-o", path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        let entry = try #require(archive["xl/worksheets/sheet1.xml"])
        var data = Data()
        _ = try archive.extract(entry) { data.append($0) }
        return data
    }

    @Test func theExamplesGiveTheRecordedCSVAndSheet() throws {
        let csv = try CLI.run(["convert", "--split-accounts"] + Self.examples + ["--to", "csv", "-q"])
        #expect(csv.status == 0)
        #expect(csv.stdoutData == (try Data(contentsOf: URL(fileURLWithPath: CLI.fixtures + "/expected/examples.csv"))))
        #expect(try sheet(Self.examples) == (try Data(contentsOf: URL(fileURLWithPath: CLI.fixtures + "/expected/examples-sheet1.xml"))))
    }

    @Test(.enabled(if: haveReal)) func theRealExportsGiveTheRecordedCSVAndSheet() throws {
        let csv = try CLI.run(["convert", "--split-accounts"] + Self.real + ["--to", "csv", "-q"])
        #expect(csv.status == 0)
        #expect(csv.stdoutData.count == 25_268)
        #expect(sha256(csv.stdoutData) == "5c84caffdfb2fff1b88719bb2eed33aef059e7362b6862bf5431a63e2daaebec")
        let xml = try sheet(Self.real)
        #expect(xml.count == 131_056)
        #expect(sha256(xml) == "5b50e289bd773be3b51c02dce0b079f0036a107382e4bafdd971b8847625d751")
    }

    /// Texts that look like OOXML's `_xHHHH_` escapes, characters the files can hold only escaped
    /// (a NUL; a CR, which XML would read back as LF), and an amount of 38 digits: both own layouts
    /// write them so that they read back as written.
    @Test func textThatLooksLikeAnOOXMLEscapeComesBackAsWritten() throws {
        let dir = try CLI.temporaryDirectory()
        let note = "a_x0041_b_x00e9_ & <c> \"d\" \u{0}nul \rcr \r\ncrlf \ttab _x005F_"
        var json = OutputBuffer(capacity: 256)
        CanonicalJSON.appendString(note, to: &json)
        let line =
            #"{"kind":"transaction","portfolio":"main","id":"","externalId":"1","time":"2021-01-01T00:00:00Z","type":"deposit","asset":"EUR","amount":"1234567890123456789012345678.9012345678","status":"complete","note":"#
            + String(decoding: json.bytes, as: UTF8.self) + #","source":{"path":"in.csv","row":2}}"#
        try (line + "\n").write(toFile: dir + "/in.jsonl", atomically: true, encoding: .utf8)
        for layout in ["xlsx", "csv"] {
            #expect(try CLI.run(["convert", dir + "/in.jsonl", "--to", layout, "-o", dir + "/ops." + layout, "-q"]).status == 0)
            let back = try CLI.run(["convert", dir + "/ops." + layout, "-q"])
            #expect(back.status == 0, "\(layout): \(back.stderr)")
            let read = try CLI.decode(back.stdoutData).allTransactions
            #expect(read.map(\.note) == [note], "\(layout)")
            // 38 significant digits, the model's most, come back as they were.
            #expect(read.map(\.amount.description) == ["1234567890123456789012345678.9012345678"], "\(layout)")
        }
        // The CSV holds no NUL byte (it would read as binary): the NUL is written as _x0000_.
        let csv = try Data(contentsOf: URL(fileURLWithPath: dir + "/ops.csv"))
        #expect(!csv.contains(0))
        #expect(String(decoding: csv, as: UTF8.self).contains("a_x005F_x0041_b_x005F_x00e9_ & <c> \"\"d\"\" _x0000_nul"))
    }
}
