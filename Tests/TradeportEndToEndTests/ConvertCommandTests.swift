import Foundation
import Testing
import TradeportCore

@Suite("tradeport convert, end to end")
struct ConvertCommandTests {
    let examples = ["formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv"]

    @Test func theExamplesConvertToTheExpectedDocument() throws {
        let r = try CLI.run(["convert"] + examples)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = try String(contentsOfFile: CLI.fixtures + "/expected/examples.json", encoding: .utf8)
        #expect(r.stdout == expected)
        #expect(r.stderr.contains("formats/samples/dsx-trades-example.csv (dsx-trades): 6 rows: 6 operations, 0 skipped, 0 rejected, 0 duplicates"))
        #expect(r.stderr.contains("formats/samples/dsx-transactions-example.csv (dsx-transactions): 9 rows: 7 operations, 2 skipped, 0 rejected, 0 duplicates"))
    }

    @Test func theExamplesConvertToTheExpectedJSONLines() throws {
        let r = try CLI.run(["convert", "--jsonl", "--split-accounts"] + examples)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = try String(contentsOfFile: CLI.fixtures + "/expected/examples-split.jsonl", encoding: .utf8)
        #expect(r.stdout == expected)
    }

    @Test func jsonLinesAndTheDocumentHoldTheSameOperations() throws {
        let doc = try CLI.decode(try CLI.run(["convert", "--split-accounts"] + examples).stdoutData)
        let lines = try CLI.run(["convert", "--jsonl", "--split-accounts"] + examples).stdout.split(separator: "\n")
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let kinds = objects.map { $0["kind"] as! String }
        // Operations first, then skipped, then the summary last.
        var expectedKinds = Array(repeating: "trade", count: 6)
        expectedKinds += Array(repeating: "transaction", count: 7)
        expectedKinds += ["skipped", "skipped", "summary"]
        #expect(kinds == expectedKinds)
        let ids = Set(objects.compactMap { $0["id"] as? String })
        #expect(ids == Set(doc.allOperationIds))
        #expect(doc.portfolios.map(\.name) == ["Main", "Savings"])
    }

    @Test func aCorruptedExportRejectsExactlyItsBadRows() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["convert", CLI.fixtures + "/corrupted-trades.csv", "-o", dir + "/out.json"])
        #expect(r.status == 1)
        let doc = try CLI.decode(file: dir + "/out.json")
        let rejected = doc.rejected.map { [$0.source.row] + $0.errors.map { $0.column ?? 0 } }
        #expect(rejected == [[2, 4], [3, 6], [4, 3], [5, 1], [6, 0], [7, 8], [8, 8], [9, 1]])
        #expect(doc.rejected.allSatisfy { $0.source.path.hasSuffix("corrupted-trades.csv") && !$0.raw.isEmpty })
        #expect(doc.allTrades.map(\.source.row).sorted() == [1, 10])
        #expect(doc.sources.first.map { [$0.rows, $0.operations, $0.rejected] } == [10, 2, 8])
        #expect(r.stderr.contains("corrupted-trades.csv:2:4: quantity: '1,2,3' is not a number"))
        #expect(r.stderr.contains("corrupted-trades.csv:4:3: side: expected Buy or Sell, found 'Sel'"))
        #expect(r.stderr.contains("rejected (8):"))
    }

    @Test func jsonLinesGroupSkippedThenRejectedThenWarningsThenSummary() throws {
        let dir = try CLI.temporaryDirectory()
        let rows = [
            "2019-01-03 10:00:00;Withdraw;USD;30;0;Main;Bank;Complete;;3;;;",
            "2019-01-02 10:00:00;Deposit;USD;5;0;Bank;Main;Failed;;2;;;",
            "2019-01-02 09:00:00;Deposit;USD;x;0;Bank;Main;Complete;;4;;;",
            "2019-01-01 10:00:00;Deposit;USD;5;0;Bank;Main;Failed;;1;;;"
        ]
        try rows.joined(separator: "\n").write(toFile: dir + "/t.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["convert", "--jsonl", "t.csv"], in: dir)
        #expect(r.status == 1)
        let kinds = r.stdout.split(separator: "\n").map { line in
            String(line.split(separator: "\"")[3])
        }
        #expect(kinds == ["transaction", "skipped", "skipped", "rejected", "warning", "summary"])
    }

    @Test func dashAsOutputIsStandardOutput() throws {
        let r = try CLI.run(["convert", "-o", "-", "--jsonl"] + examples)
        #expect(r.status == 0 && r.stdout.hasPrefix(#"{"kind":"trade""#))
    }

    @Test func strictWritesNothingWhenARowIsRejected() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["convert", "--strict", CLI.fixtures + "/corrupted-trades.csv", "-o", dir + "/out.json"])
        #expect(r.status == 1)
        #expect(CLI.entries(dir).isEmpty)
        #expect(r.stderr.contains("nothing written"))
        let toStdout = try CLI.run(["convert", "--strict", CLI.fixtures + "/corrupted-trades.csv"])
        #expect(toStdout.status == 1 && toStdout.stdout.isEmpty)
        let clean = try CLI.run(["convert", "--strict"] + examples)
        #expect(clean.status == 0 && !clean.stdout.isEmpty)
    }

    @Test func overlappingExportsConvertToTheirUnion() throws {
        let dir = try CLI.temporaryDirectory()
        let lines = try String(contentsOfFile: CLI.repositoryRoot + "/" + examples[0], encoding: .utf8).split(separator: "\n")
        try lines[0..<4].joined(separator: "\n").write(toFile: dir + "/march.csv", atomically: true, encoding: .utf8)
        try lines[2..<6].joined(separator: "\n").write(toFile: dir + "/february.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["convert", "march.csv", "february.csv", "-o", "all.json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try CLI.decode(file: dir + "/all.json")
        #expect(doc.allTrades.count == 6)
        #expect(doc.sources.map(\.duplicates) == [0, 2])
        #expect(r.stderr.contains("february.csv (dsx-trades): 4 rows: 2 operations, 0 skipped, 0 rejected, 2 duplicates"))
    }

    @Test(arguments: [
        ("missing.csv", "no such file"), (".", "is a directory"), ("empty.csv", "is empty"),
        ("other-exchange.csv", "no format recognized")
    ])
    func inputsThatCannotBeConvertedExitWithTwoAndWriteNothing(input: String, message: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["convert", input, "-o", dir + "/out.json"], in: CLI.fixtures)
        #expect(r.status == 2)
        #expect(r.stderr.lowercased().contains(message), "\(r.stderr)")
        #expect(CLI.entries(dir).isEmpty)
    }

    @Test func anUnrecognizedFileSaysWhereEveryFormatIsListed() throws {
        let r = try CLI.run(["convert", "other-exchange.csv"], in: CLI.fixtures)
        #expect(r.stderr.contains("no format recognized: no line among its first comes near the header of any of the"))
        #expect(r.stderr.contains("\"tradeport detect --verbose other-exchange.csv\" gives each one's reason"))
        #expect(r.stderr.contains("\"tradeport formats new other-exchange.csv\" drafts one"))
        #expect(r.stdout.isEmpty)
    }

    @Test func standardInputNeedsAFormat() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: CLI.repositoryRoot + "/" + examples[0]))
        let ok = try CLI.run(["convert", "--format", "dsx-trades", "--jsonl", "-"], input: data)
        #expect(ok.status == 0)
        #expect(ok.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"trade""#) }.count == 6)
        #expect(ok.stdout.contains(#""path":"-""#))
        let refused = try CLI.run(["convert", "-"], input: data)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--format"))
    }

    @Test func usageErrorsExitWithTwo() throws {
        #expect(try CLI.run(["convert"]).status == 2)
        #expect(try CLI.run(["convert", "--no-such-flag", examples[0]]).status == 2)
        let unknown = try CLI.run(["convert", "--format", "nope", examples[0]])
        #expect(
            unknown.status == 2
                && unknown.stderr.contains(
                    "known formats: avanza, binance, bitpanda, bitvavo, bux, coinbase, coinbasepro-fills, coinbasepro, cryptocom, degiro-transactions, degiro, dsx-trades"
                )
        )
        let zone = try CLI.run(["convert", "--timezone", "Mars/Olympus", examples[0]])
        #expect(zone.status == 2 && zone.stderr.contains("time zone"))
    }

    @Test func theTimeZoneOptionReadsLocalTimes() throws {
        let r = try CLI.run(["convert", "--jsonl", "--timezone", "Europe/Moscow", examples[0]])
        #expect(r.stdout.contains(#""externalId":"41000012","time":"2021-03-02T11:05:09Z""#))
    }

    @Test func keepFailedOutputsFailedTransactionsWithTheirStatus() throws {
        let doc = try CLI.decode(try CLI.run(["convert", "--keep-failed", examples[1]]).stdoutData)
        let statuses: [String] = doc.allTransactions.map(\.status.rawValue).filter { $0 != "complete" }.sorted()
        #expect(statuses == ["failed", "rejected"])
        #expect(doc.skipped.isEmpty)
    }

    @Test func helpDocumentsTheExitCodes() throws {
        let r = try CLI.run(["convert", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("EXIT CODES") && r.stdout.contains("2  usage error"))
    }

    @Test func anInterruptedRunLeavesNoFileBehind() throws {
        let dir = try CLI.temporaryDirectory()
        // A stream on standard input (a named pipe is refused as input since it could hang).
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = ["convert", "--format", "dsx-trades", "-", "-o", dir + "/out.json"]
        process.standardError = FileHandle.nullDevice
        process.standardInput = pipe
        try process.run()
        // Feed more than detection reads and keep the pipe open, so the conversion is mid-way.
        let writer = pipe.fileHandleForWriting
        let rows = (1...2000).map { "2021-03-02 9:41:30;btcusdt;Buy;0,015;BTC;48210,5;USDT;723,1575;USDT;0,0000375;BTC;Main;\($0);2\n" }
        writer.write(Data(rows.joined().utf8))
        var waited = 0
        while CLI.entries(dir).count < 1 && waited < 200 {  // the temporary output appears
            usleep(10_000)
            waited += 1
        }
        #expect(CLI.entries(dir).count == 1)
        process.interrupt()
        process.waitUntilExit()
        try writer.close()
        #expect(process.terminationStatus != 0)
        #expect(CLI.entries(dir).isEmpty)
    }
}

@Suite("tradeport detect and formats")
struct OtherCommandTests {
    @Test func detectNamesEachFilesFormat() throws {
        let r = try CLI.run(["detect", "formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv"])
        #expect(r.status == 0)
        #expect(r.stdout == "formats/samples/dsx-trades-example.csv: dsx-trades\nformats/samples/dsx-transactions-example.csv: dsx-transactions\n")
        let bad = try CLI.run(["detect", "other-exchange.csv", "empty.csv"], in: CLI.fixtures)
        #expect(bad.status == 2)
        let lines = bad.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("other-exchange.csv: not recognized: no format recognized: no line among its first comes near"))
        #expect(lines[1] == "empty.csv: not recognized: empty.csv: the file is empty; there is nothing to convert")
        // Every format considered, one a line, with --verbose.
        let verbose = try CLI.run(["detect", "--verbose", "other-exchange.csv"], in: CLI.fixtures)
        #expect(verbose.stdout.hasPrefix("other-exchange.csv: not recognized; considered:\n  avanza: "))
        #expect(verbose.stdout.contains("\n  dsx-trades: line 1 has 1 field separated by ';', not 14\n"))
    }

    /// Issue 44: a file of a known broker in a layout tradeport does not know names the format it
    /// came nearest to, what its header lacks, and the header line to report.
    @Test func anUnknownLayoutNamesTheNearestFormat() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/schwab-renamed.csv"
        try Data(
            """
            "Transactions  for account XXXX-1234 as of 09/27/2023"
            "Date","Action","Symbol","Description","Quantity","Price","Commission","Amount"
            "09/26/2023","Buy","VTI","VANGUARD TOTAL STOCK MARKET ETF","2","$210.00","","-$420.00"

            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        for command in [["detect", path], ["convert", path, "-q"]] {
            let r = try CLI.run(command)
            #expect(r.status == 2)
            let said = r.stdout + r.stderr
            #expect(said.contains("It looks like schwab, Charles Schwab brokerage transaction history"), "\(said)")
            #expect(said.contains("but its header (line 2) lacks 'Fees & Comm': a layout tradeport does not know yet"), "\(said)")
            #expect(said.contains("\n  \"Date\",\"Action\",\"Symbol\",\"Description\",\"Quantity\",\"Price\",\"Commission\",\"Amount\"\n"), "\(said)")
            #expect(!said.contains("binance"), "the formats it is nowhere near are not listed: \(said)")
        }
    }

    /// tradeport's own JSON Lines, a trade first, are its JSON: a line of JSON read as CSV is a
    /// malformed record (`"time":"…"` has text after its closing quote), never a header line.
    @Test func jsonLinesAreNotTakenForTheOwnCSV() throws {
        let dir = try CLI.temporaryDirectory()
        let written = try CLI.run(["convert", "formats/samples/kraken-trades-example.csv", "--jsonl", "-q", "-o", dir + "/ops.jsonl"])
        #expect(written.status == 0)
        let r = try CLI.run(["detect", dir + "/ops.jsonl", "Tests/TradeportEndToEndTests/Fixtures/control-characters.jsonl"])
        #expect(r.stdout == "\(dir)/ops.jsonl: tradeport-json\nTests/TradeportEndToEndTests/Fixtures/control-characters.jsonl: tradeport-json\n", "\(r.stdout)")
    }

    /// A header line past the 4 MiB a record may hold: detection (which sees the file's first
    /// 64 KiB) names the format, and convert says which row and which limit, not "no header row".
    @Test func aHeaderPastTheRecordLimitIsNamed() throws {
        let path = try CLI.temporaryDirectory() + "/huge-header.csv"
        let header = "txid,ordertxid,pair,time,type,ordertype,price,cost,fee,vol,margin,misc,ledgers," + String(repeating: "x", count: 5 << 20)
        try (header + "\nA,B,XXBTZEUR,2024-01-01 00:00:00,buy,market,1,1,0,1,0,,L\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = try CLI.run(["convert", path, "-q"])
        #expect(r.status == 2)
        #expect(
            r.stderr.contains("row 1, where the format kraken-trades expects its header, cannot be read: the record is longer than 4 MiB (5242959 bytes)"),
            "\(r.stderr)")
    }

    /// A file detection calls binary says where: the offset of the NUL byte it found.
    @Test func aBinaryRefusalNamesTheOffset() throws {
        let path = try CLI.temporaryDirectory() + "/with-nul.csv"
        var bytes = Array("kind,portfolio,id,externalId,time\ntransaction,main,x".utf8)
        bytes.insert(0, at: 40)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["detect", "--verbose", path])
        #expect(r.stdout.contains("tradeport-csv: binary data (a NUL byte at offset 40), not a text export"), "\(r.stdout)")
    }

    @Test func formatsListsIdsAndDescriptions() throws {
        let r = try CLI.run(["formats"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("avanza "))
        #expect(r.stdout.contains("\ndsx-trades "))
        #expect(r.stdout.contains("\ndsx-transactions ") && r.stdout.contains(" DSX exchange deposits and withdrawals export"))
    }
}

@Suite("Output against the published JSON Schema", .enabled(if: CLI.canValidateSchema, "python3 with jsonschema is not installed"))
struct SchemaTests {
    @Test func documentsAndJSONLinesAreValid() throws {
        let dir = try CLI.temporaryDirectory()
        let inputs = ["formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv"]
        _ = try CLI.run(["convert", "--keep-failed"] + inputs + ["-o", dir + "/doc.json"])
        _ = try CLI.run(["convert", "--jsonl", "--split-accounts"] + inputs + ["-o", dir + "/lines.jsonl"])
        _ = try CLI.run(["convert", CLI.fixtures + "/corrupted-trades.csv", "-o", dir + "/rejects.json"])
        for (file, jsonl) in [("doc.json", false), ("lines.jsonl", true), ("rejects.json", false)] {
            let r = try CLI.validateSchema(dir + "/" + file, jsonl: jsonl)
            #expect(r.status == 0, "\(file): \(r.output)")
        }
    }
}

extension CanonicalDocument {
    var allOperationIds: [String] { portfolios.flatMap { $0.trades.map(\.id) + $0.transactions.map(\.id) } }
    var allTrades: [Trade] { portfolios.flatMap(\.trades) }
    var allTransactions: [CashTransaction] { portfolios.flatMap(\.transactions) }
}
