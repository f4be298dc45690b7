import Foundation
import Testing
import TradeportCore

/// Converting to tradeport's own CSV or XLSX and back gives the same operations, in the same
/// portfolios, as the direct conversion.
@Suite("tradeport-csv round trips, end to end")
struct RoundTripTests {
    /// Operations, ids included, without their locations (which name the file they were read from).
    func operations(_ document: CanonicalDocument) -> [String] {
        // The fields themselves (a Trade prints only its storage box), every one but the location.
        let trades = document.allTrades.map { t -> String in
            var f = t.fields
            f.source = SourceLocation(path: "", row: 0)
            return "\(f)"
        }
        let transactions = document.allTransactions.map { t -> String in
            var f = t.fields
            f.source = SourceLocation(path: "", row: 0)
            return "\(f)"
        }
        return (trades + transactions).sorted()
    }

    @Test("the shipped examples, and the real exports when they are there", arguments: ["csv", "xlsx"])
    func roundTrip(layout: String) throws {
        var inputs = ["formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv"]
        let shared = CLI.repositoryRoot + "/../shared/samples"
        if FileManager.default.fileExists(atPath: shared + "/dsx-trades.csv") {
            inputs += ["../shared/samples/dsx-trades.csv", "../shared/samples/dsx-transactions.csv", "../shared/samples/tinkoff-broker-report.xlsx"]
        }
        let dir = try CLI.temporaryDirectory()
        let direct = try CLI.run(["convert", "--split-accounts"] + inputs + ["-o", dir + "/direct.json", "-q"])
        #expect(direct.status == 0, "\(direct.stderr)")
        let file = dir + "/ops." + layout
        let written = try CLI.run(["convert", "--split-accounts"] + inputs + ["--to", layout, "-o", file, "-q"])
        #expect(written.status == 0, "\(written.stderr)")
        let detected = try CLI.run(["detect", file])
        #expect(detected.stdout.contains("tradeport-\(layout)"))
        let back = try CLI.run(["convert", file, "-o", dir + "/back.json", "-q"])
        #expect(back.status == 0, "\(back.stderr)")
        let a = try CLI.decode(file: dir + "/direct.json")
        let b = try CLI.decode(file: dir + "/back.json")
        #expect(!a.allTrades.isEmpty)
        #expect(operations(a) == operations(b))
        // The portfolio column brings every operation back to its portfolio.
        #expect(a.portfolios.map(\.name) == b.portfolios.map(\.name))
        #expect(a.portfolios.count > 1)
        for (x, y) in zip(a.portfolios, b.portfolios) {
            #expect(x.trades.map(\.externalId) == y.trades.map(\.externalId), "\(x.name)")
            #expect(x.transactions.map(\.externalId) == y.transactions.map(\.externalId), "\(x.name)")
        }
    }

    /// Times with a fraction of a second (Kraken's `08:12:05.3311`): the own CSV writes them so and
    /// reads them back; the XLSX, whose date cells hold whole seconds exactly, writes them as text.
    @Test(arguments: ["csv", "xlsx"])
    func fractionsOfASecondComeBack(layout: String) throws {
        let input = "formats/samples/kraken-trades-example.csv"
        let dir = try CLI.temporaryDirectory()
        #expect(try CLI.run(["convert", input, "-o", dir + "/direct.json", "-q"]).status == 0)
        #expect(try CLI.run(["convert", input, "--to", layout, "-o", dir + "/ops." + layout, "-q"]).status == 0)
        let back = try CLI.run(["convert", dir + "/ops." + layout, "-o", dir + "/back.json", "-q"])
        #expect(back.status == 0, "\(back.stderr)")
        let a = try CLI.decode(file: dir + "/direct.json")
        let b = try CLI.decode(file: dir + "/back.json")
        #expect(a.allTrades.contains { $0.time.description == "2024-02-01T08:12:05.3311Z" })
        #expect(operations(a) == operations(b))
    }

    /// Texts a spreadsheet would run as formulas (`=`, `+`, `-`, `@`, a tab, a carriage return at
    /// the start), texts that begin with a quote, and plain negative numbers: the own CSV quotes the
    /// formulas (OWASP's guidance; `SpreadsheetText`) and reads back every text exactly as it was.
    @Test func formulaTextsAreQuotedAndReadBackExactly() throws {
        let input = "Tests/TradeportEndToEndTests/Fixtures/formula-texts.jsonl"
        let dir = try CLI.temporaryDirectory()
        let direct = try CLI.run(["convert", input, "-o", dir + "/direct.json", "-q"])
        #expect(direct.status == 0, "\(direct.stderr)")
        let written = try CLI.run(["convert", input, "--to", "csv", "-o", dir + "/ops.csv", "-q"])
        #expect(written.status == 0, "\(written.stderr)")
        let csv = try String(contentsOfFile: dir + "/ops.csv", encoding: .utf8)
        // The formulas quoted, a quote before a text that had one, the numbers as they are.
        let cells = [
            "'=cmd|calc", #""'=HYPERLINK(""http://example.invalid"",""x"")""#, "'+1+2", "'-2+3", "'@SUM(A1)", "'\tTabbed",
            "\"'\rCarriage\"", ",''quoted,", ",'''twice,", ",-5,", ",-0.25,"
        ]
        for cell in cells {
            #expect(csv.contains(cell), "\(cell)")
        }
        for line in csv.split(separator: "\n") {
            for field in line.split(separator: ",") {
                #expect(!["=", "+", "@", "\t", "\r"].contains { field.hasPrefix($0) }, "\(field)")
            }
        }
        let back = try CLI.run(["convert", dir + "/ops.csv", "-o", dir + "/back.json", "-q"])
        #expect(back.status == 0, "\(back.stderr)")
        let a = try CLI.decode(file: dir + "/direct.json")
        let b = try CLI.decode(file: dir + "/back.json")
        #expect(a.allTransactions.count == 12)
        #expect(operations(a) == operations(b))
        #expect(a.portfolios.map(\.name) == b.portfolios.map(\.name))
        #expect(b.allTransactions.map { $0.note ?? "" } == a.allTransactions.map { $0.note ?? "" })
        // Portfolio Performance's CSV quotes them too.
        let pp = try CLI.run(["convert", input, "--to", "portfolio-performance", "-o", dir + "/pp"])
        #expect(pp.status == 0, "\(pp.stderr)")
        for file in try FileManager.default.contentsOfDirectory(atPath: dir + "/pp") {
            let text = try String(contentsOfFile: dir + "/pp/" + file, encoding: .utf8)
            #expect(!text.contains(",=") && !text.contains(",+1") && !text.contains(",@"), "\(file)")
        }
    }

    static let soffice = ["/usr/bin/soffice", "/usr/local/bin/soffice"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(
        "LibreOffice opens the XLSX written, and its own re-save reads back to the same operations",
        .enabled(if: soffice != nil, "LibreOffice (soffice) is not installed"))
    func libreOfficeOpensIt() throws {
        let dir = try CLI.temporaryDirectory()
        let inputs = ["formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv"]
        #expect(try CLI.run(["convert", "--split-accounts"] + inputs + ["-o", dir + "/direct.json", "-q"]).status == 0)
        #expect(try CLI.run(["convert", "--split-accounts"] + inputs + ["--to", "xlsx", "-o", dir + "/ops.xlsx", "-q"]).status == 0)
        try FileManager.default.createDirectory(atPath: dir + "/re", withIntermediateDirectories: true)
        let r = try CLI.shell(
            Self.soffice!,
            ["-env:UserInstallation=file://" + dir + "/profile", "--headless", "--convert-to", "xlsx", "--outdir", dir + "/re", dir + "/ops.xlsx"])
        #expect(r.status == 0, "\(r.output)")
        let back = try CLI.run(["convert", dir + "/re/ops.xlsx", "-o", dir + "/back.json", "-q"])
        #expect(back.status == 0, "\(back.stderr)")
        let a = try CLI.decode(file: dir + "/direct.json")
        let b = try CLI.decode(file: dir + "/back.json")
        #expect(operations(a) == operations(b))
        #expect(a.portfolios.map(\.name) == b.portfolios.map(\.name))
    }
}
