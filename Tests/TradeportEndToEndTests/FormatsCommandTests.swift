import Foundation
import Testing
import TradeportCore
import TradeportFormats

/// Where formats come from (built in, ./formats, the config directory, --formats-dir, --spec) and
/// `tradeport formats [check|show]`, through the CLI.
@Suite("tradeport formats, and specs from files, end to end")
struct FormatsCommandTests {
    static let kraken = CLI.repositoryRoot + "/docs/examples/kraken-trades.yaml"
    static let krakenCSV = CLI.repositoryRoot + "/docs/examples/kraken-trades.csv"

    /// A scratch directory (not the repository, whose own formats/ would be read as ./formats).
    func scratch() throws -> String { try CLI.temporaryDirectory() }

    @Test func theListShowsEachFormatWithItsOrigin() throws {
        let dir = try scratch()
        let r = try CLI.run(["formats"], in: dir, environment: ["XDG_CONFIG_HOME": dir + "/none"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        for id in ["dsx-trades", "dsx-transactions", "tradeport-csv", "tradeport-xlsx"] {
            #expect(lines.contains { $0.hasPrefix(id + " ") && $0.hasSuffix("[built-in spec]") }, "\(id)")
        }
        #expect(lines.contains { $0.hasPrefix("tinkoff-report ") && $0.hasSuffix("[built-in]") })
    }

    @Test func checkNamesEveryProblemWithFileLineAndKey() throws {
        let dir = try scratch()
        let good = try CLI.run(["formats", "check", Self.kraken], in: dir)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("kraken-trades: ok"))
        let bad = dir + "/bad.yaml"
        try
            "tradeport-format: 1\nid: bad\ndescription: x\nsource: {type: csv, delimter: \";\"}\ncolumns:\n  - {name: q, position: 1, type: decmal}\nrows: {kind: trade}\ntrade: {time: q}\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try CLI.run(["formats", "check", bad], in: dir)
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix(bad + ":4:21: error: source.delimter: unknown key") == true, "\(r.stderr)")
        #expect(lines.contains { $0.hasPrefix(bad + ":6:") && $0.contains("columns.q.type: 'decmal' is not a type") })
        #expect(lines.contains { $0.hasPrefix(bad + ":8:") && $0.contains("trade.side: missing") })
    }

    @Test func showPrintsASpecAndRefusesACodeAdapter() throws {
        let dir = try scratch()
        let r = try CLI.run(["formats", "show", "dsx-trades"], in: dir)
        #expect(r.status == 0)
        let file = try String(contentsOfFile: CLI.repositoryRoot + "/formats/dsx-trades.yaml", encoding: .utf8)
        #expect(r.stdout.hasPrefix("# dsx-trades, from built-in spec\n"))
        #expect(r.stdout.hasSuffix(file))
        let code = try CLI.run(["formats", "show", "tinkoff-report"], in: dir)
        #expect(code.status == 2 && code.stderr.contains("not as a spec"))
        let unknown = try CLI.run(["formats", "show", "nope"], in: dir)
        #expect(unknown.status == 2)
    }

    @Test func aSpecFileConvertsWithDetection() throws {
        let dir = try scratch()
        let r = try CLI.run(["convert", "--spec", Self.kraken, Self.krakenCSV, "-q"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try CLI.decode(r.stdoutData)
        #expect(doc.sources.map(\.format) == ["kraken-trades"])
        #expect(!doc.allTrades.isEmpty)
    }

    @Test("./formats, the config directory and --formats-dir are read, later ones replacing earlier ids")
    func searchOrder() throws {
        let dir = try scratch()
        let spec = try String(contentsOfFile: Self.kraken, encoding: .utf8)
        func write(_ folder: String, description: String) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try spec.replacingOccurrences(of: "\ndescription: ", with: "\ndescription: \(description) ")
                .write(toFile: folder + "/kraken-trades.yaml", atomically: true, encoding: .utf8)
        }
        try write(dir + "/formats", description: "(local)")
        try write(dir + "/config/tradeport/formats", description: "(config)")
        try write(dir + "/extra", description: "(extra)")
        let env = ["XDG_CONFIG_HOME": dir + "/config"]
        func listed(_ extra: [String]) throws -> String {
            let r = try CLI.run(["formats"] + extra, in: dir, environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").first { $0.hasPrefix("kraken-trades ") }.map(String.init) ?? ""
        }
        #expect(try listed([]).contains("(config)"))
        #expect(try listed([]).hasSuffix("[\(dir)/config/tradeport/formats/kraken-trades.yaml]"))
        #expect(try listed(["--formats-dir", dir + "/extra"]).contains("(extra)"))
        try FileManager.default.removeItem(atPath: dir + "/config")
        #expect(try listed([]).contains("(local)"))
        // A spec with a built-in id replaces the built-in one.
        try FileManager.default.removeItem(atPath: dir + "/extra/kraken-trades.yaml")
        let dsx = try String(contentsOfFile: CLI.repositoryRoot + "/formats/dsx-trades.yaml", encoding: .utf8)
        try dsx.replacingOccurrences(of: "\ndescription: ", with: "\ndescription: (mine) ")
            .write(toFile: dir + "/extra/dsx-trades.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["formats", "--formats-dir", dir + "/extra"], in: dir, environment: env)
        #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("dsx-trades ") && $0.contains("(mine)") })
    }

    @Test func aBrokenSpecInADirectoryStopsTheRunNamingItsLine() throws {
        let dir = try scratch()
        try FileManager.default.createDirectory(atPath: dir + "/formats", withIntermediateDirectories: true)
        try "tradeport-format: 1\nid: broken\ndescription: x\nsource: {type: tsv}\n"
            .write(toFile: dir + "/formats/broken.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["convert", CLI.repositoryRoot + "/formats/samples/dsx-trades-example.csv", "-o", dir + "/out.json"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("formats/broken.yaml:4:"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.json"))
    }

    @Test("convert --format ID loads no spec of a folder that declares another id; one without a readable id still loads")
    func aToldFormatLoadsOnlyItsSpec() throws {
        let dir = try scratch()
        try FileManager.default.createDirectory(atPath: dir + "/formats", withIntermediateDirectories: true)
        try "tradeport-format: 1\nid: 'broken'   # being written\ndescription: x\nsource: {type: tsv}\n"
            .write(toFile: dir + "/formats/broken.yaml", atomically: true, encoding: .utf8)
        let sample = CLI.repositoryRoot + "/formats/samples/dsx-trades-example.csv"
        let told = try CLI.run(["convert", sample, "--format", "dsx-trades", "-o", dir + "/out.json"], in: dir)
        #expect(told.status == 0, "\(told.stderr)")
        // Detection needs every format: the broken spec stops it, as does naming the broken one.
        #expect(try CLI.run(["convert", sample, "-o", dir + "/detected.json"], in: dir).status == 2)
        #expect(try CLI.run(["convert", sample, "--format", "broken", "-o", dir + "/b.json"], in: dir).status == 2)
        // No `id:` line the scan can read (a flow mapping): loaded, and its problem stops the run.
        try "{tradeport-format: 1, id: other, description: x, source: {type: tsv}}\n"
            .write(toFile: dir + "/formats/broken.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["convert", sample, "--format", "dsx-trades", "-o", dir + "/c.json"], in: dir).status == 2)
        #expect(FormatCatalog.declaredID(ofSpecAt: CLI.repositoryRoot + "/formats/schwab.yaml") == "schwab")
    }
}
