import Foundation
import Testing
import TradeportCore
import TradeportTestKit

enum SharedFolder {
    static let root = URL(fileURLWithPath: CLI.repositoryRoot).deletingLastPathComponent().appendingPathComponent("shared").path
    static let tinkoffSample = root + "/samples/tinkoff-broker-report.xlsx"
    static let generator = root + "/bench/gen_tinkoff.py"
    static var hasTinkoffSample: Bool { FileManager.default.fileExists(atPath: tinkoffSample) }
    static let canGenerate: Bool = {
        FileManager.default.fileExists(atPath: generator)
            && (try? CLI.shell("python3", ["-c", "import xlsxwriter, openpyxl"]))?.status == 0
    }()
}

@Suite("tradeport convert on Tinkoff broker reports, end to end")
struct TinkoffCommandTests {
    func sum(_ values: [ExactDecimal]) -> String { values.reduce(ExactDecimal.zero) { $0.adding($1)! }.description }

    @Test(
        "the real report: five deals, one pending, seven cash transactions, four cash legs, a movement without a deal, nothing rejected",
        .enabled(if: SharedFolder.hasTinkoffSample, "../shared/samples is not there"))
    func realSample() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["convert", SharedFolder.tinkoffSample, "-o", dir + "/out.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try CLI.decode(file: dir + "/out.json")
        #expect(doc.sources.first?.format == "tinkoff-report")
        #expect(doc.rejected.isEmpty)

        // Section 1.1 of the file: deal, side, base/quote, quantity, price, amount, fees summed, ISIN.
        let trades = doc.allTrades.sorted { Int($0.externalId!)! < Int($1.externalId!)! }
        let seen = trades.map { t in
            "\(t.externalId!) \(t.side.rawValue) \(t.base)/\(t.quote) \(t.quantity) @ \(t.price) = \(t.amount!) fees \(sum(t.fees.map(\.amount))) \(Set(t.fees.map(\.currency.text)).sorted().joined()) \(t.isin ?? "-")"
        }
        #expect(
            seen == [
                "1 buy AAPL/USD 3 @ 138.28 = 414.84 fees 1.24 USD US0378331005",
                "2 buy MSFT/USD 2 @ 230.81 = 461.62 fees 1.38 USD US5949181045",
                "3 sell MSFT/USD 5 @ 225.63 = 1128.15 fees 0.28 USD US5949181045",
                "4 sell MVID/RUB 14 @ 854 = 11956 fees 5.98 RUB RU000A0JPGA0",  // the exchange and clearing fees are in the broker's
                "5 sell USD/RUB 300 @ 76.09 = 22827 fees 11.41 RUB -"
            ])
        #expect(Set(trades.map(\.time.description)) == ["2020-12-31T21:00:00Z"])
        #expect(trades.map(\.source.row) == [9, 10, 13, 14, 15])
        #expect(trades[4].name == "USDRUB_TOM")

        let cash = doc.allTransactions.map { "\($0.asset) \($0.type.rawValue) \($0.amount)\($0.security.map { " " + $0 } ?? "")" }
        #expect(
            cash.sorted()
                == [
                    "RUB deposit 10000", "RUB fee 30", "RUB tax 10", "RUB withdrawal 2000",
                    "USD deposit 2000", "USD dividend 10 AAPL", "USD dividend-charge 15 MSFT"
                ].sorted())
        #expect(Set(doc.allTransactions.map(\.time.description)) == ["2020-12-31T21:00:00Z"])

        let pending = doc.skipped.filter { $0.reason.hasPrefix("pending") }
        #expect(pending.map(\.source.row) == [18])
        let legs = doc.skipped.filter { $0.reason.hasPrefix("trade cash leg") }
        #expect(legs.map(\.source.row) == [32, 33, 34, 35])
        let source = try #require(doc.sources.first)
        #expect(source.rows == source.operations + source.skipped + source.rejected + source.duplicates)
        #expect(source.operations == 13)
        // GIS: 3.1 says one came in, and no deal or payout of the report touches it.
        let moved = doc.portfolios.flatMap(\.movements).map { "\($0.direction.rawValue) \($0.asset) \($0.quantity) \($0.reason.rawValue) \($0.source.row)" }
        #expect(moved == ["in GIS 1 unstated 50"])
        if CLI.canValidateSchema {
            let v = try CLI.validateSchema(dir + "/out.json")
            #expect(v.status == 0, "\(v.output)")
        }
    }

    @Test(
        "--timezone overrides Moscow time; a report on standard input converts with --format",
        .enabled(if: SharedFolder.hasTinkoffSample, "../shared/samples is not there"))
    func timeZoneAndStandardInput() throws {
        let utc = try CLI.run(["convert", SharedFolder.tinkoffSample, "--timezone", "UTC", "--jsonl", "-q"])
        #expect(utc.status == 0, "\(utc.stderr)")
        #expect(utc.stdout.contains(#""externalId":"1","time":"2021-01-01T00:00:00Z""#))
        let data = try Data(contentsOf: URL(fileURLWithPath: SharedFolder.tinkoffSample))
        let piped = try CLI.run(["convert", "-", "--format", "tinkoff-report", "--jsonl", "-q"], input: data)
        #expect(piped.status == 0, "\(piped.stderr)")
        let direct = try CLI.run(["convert", SharedFolder.tinkoffSample, "--jsonl", "-q"])
        // The path, in locations and in the reconciliation's lines and warnings, is the one difference.
        #expect(
            piped.stdout.replacingOccurrences(of: #""path":"-""#, with: "").replacingOccurrences(of: #""message":"-: "#, with: "")
                == direct.stdout.replacingOccurrences(of: #""path":"\#(SharedFolder.tinkoffSample)""#, with: "")
                .replacingOccurrences(of: #""message":"\#(SharedFolder.tinkoffSample): "#, with: ""))
        let detected = try CLI.run(["convert", "-", "-q"], input: data)
        #expect(detected.status == 2)
        #expect(detected.stderr.contains("--format"))
    }

    @Test(
        "generated reports, from both writers, convert to exactly the counts and sums the generator prints",
        .enabled(if: SharedFolder.canGenerate, "../shared/bench or Python's xlsxwriter and openpyxl are not there"),
        arguments: ["xlsxwriter", "openpyxl"])
    func generatedReports(writer: String) throws {
        let dir = try CLI.temporaryDirectory()
        let report = dir + "/report-\(writer).xlsx"
        let generated = try CLI.shell("python3", [SharedFolder.generator, "1500", report, "--writer", writer, "--seed", "11"])
        #expect(generated.status == 0, "\(generated.output)")
        let summary = try JSONSerialization.jsonObject(with: Data(generated.output.utf8)) as! [String: Any]
        let r = try CLI.run(["convert", report, "-o", dir + "/out.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try CLI.decode(file: dir + "/out.json")
        #expect(doc.rejected.isEmpty)
        let trades = doc.allTrades
        #expect(trades.count == summary["trades"] as? Int)
        #expect(trades.filter { $0.side == .buy }.count == summary["buy"] as? Int)
        #expect(trades.filter { $0.side == .sell }.count == summary["sell"] as? Int)
        #expect(sum(trades.map(\.quantity)) == summary["sum_quantity"] as? String)
        #expect(trades.allSatisfy { $0.isin != nil })
        for (currency, total) in summary["sum_amount"] as! [String: String] {
            #expect(sum(trades.filter { $0.quote.text == currency }.compactMap(\.amount)) == ExactDecimal(total).description, "amount \(currency)")
        }
        // The generator's fee totals include the exchange fee it writes for RUB deals (0.01% of the
        // amount, to the kopeck); tradeport does not add it to the broker's fee, which includes it.
        for (currency, total) in summary["sum_fees"] as! [String: String] {
            let exchange =
                currency == "RUB"
                ? trades.filter { $0.quote.text == currency }.compactMap { $0.amount?.divided(by: ExactDecimal(10000), roundedToScale: 2) }
                : []
            let read = trades.flatMap(\.fees).filter { $0.currency.text == currency }.map(\.amount)
            #expect(sum(read + exchange) == ExactDecimal(total).description, "fees \(currency)")
        }
        let kinds: [(String, CashTransactionType)] = [
            ("deposits", .deposit), ("withdrawals", .withdrawal), ("dividends", .dividend),
            ("taxes", .tax), ("fees", .fee)
        ]
        for (key, type) in kinds {
            for (currency, total) in summary[key] as! [String: String] {
                let mine = doc.allTransactions.filter { $0.type == type && $0.asset.text == currency }
                #expect(sum(mine.map(\.amount)) == ExactDecimal(total).description, "\(key) \(currency)")
            }
        }
        #expect(doc.allTransactions.filter { $0.type == .dividend }.allSatisfy { $0.security != nil })
        #expect(doc.skipped.filter { $0.reason.hasPrefix("pending") }.count == summary["pending"] as? Int)
        #expect(doc.skipped.filter { $0.reason.hasPrefix("trade cash leg") }.count == summary["skipped_cash_rows"] as? Int)
    }

    @Test(
        "hostile and broken workbooks: a clear error, exit 2, no output file, in bounded time and memory",
        arguments: ["bomb", "lying-bomb", "billion-laughs", "external-entity", "truncated", "text", "no-workbook", "xls", "encrypted"])
    func hostile(kind: String) throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir + "/input.xlsx"
        switch kind {
        case "bomb":
            try HostileWorkbooks.bomb(megabytes: 256).write(to: path)
        case "lying-bomb":
            try HostileWorkbooks.bomb(megabytes: 64).write(to: path)
            try HostileWorkbooks.declare(size: 5000, for: "xl/worksheets/sheet1.xml", in: path)
        case "billion-laughs":
            try HostileWorkbooks.sheet(HostileWorkbooks.billionLaughs).write(to: path)
        case "external-entity":
            try HostileWorkbooks.sheet(HostileWorkbooks.externalEntity).write(to: path)
        case "truncated":
            try TestWorkbook.rows((1...300).map { [0: "row \($0)", 3: $0] }).write(to: dir + "/whole.xlsx")
            let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.xlsx"))
            try whole.prefix(whole.count - 200).write(to: URL(fileURLWithPath: path))
        case "text":
            try Data("Дата;Сумма\n01.01.2021;5\n".utf8).write(to: URL(fileURLWithPath: path))
        case "no-workbook":
            try TestWorkbook(parts: [("word/document.xml", Data("<document/>".utf8))]).write(to: path)
        case "xls":
            try HostileWorkbooks.compoundFile(encrypted: false).write(to: URL(fileURLWithPath: path))
        default:
            try HostileWorkbooks.compoundFile(encrypted: true).write(to: URL(fileURLWithPath: path))
        }
        for formatArguments in [["--format", "tinkoff-report"], []] {
            let arguments = ["convert", path, "-o", dir + "/out.json"] + formatArguments
            var r: CLI.Result
            if CLI.canMeasureMemory {
                let (result, peak) = try CLI.runMeasured(arguments, timeout: 60)
                r = result
                #expect(peak < 200 << 20, "\(kind): peak memory \(peak) bytes")
            } else {
                r = try CLI.run(arguments, timeout: 60)
            }
            #expect(r.status == 2, "\(kind) \(formatArguments): \(r.stderr)")
            #expect(r.stderr.contains("input.xlsx"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.json"))
            #expect(CLI.entries(dir).allSatisfy { !$0.hasPrefix("out.json") && !$0.hasPrefix(".out.json") }, "\(CLI.entries(dir))")
        }
    }
}
