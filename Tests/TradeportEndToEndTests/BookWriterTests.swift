import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The writers into the tools people keep their books in: Beancount and hledger checked by the
/// tools themselves (bean-check, hledger check) and their balances held equal to tradeport's own,
/// asset by asset; Ghostfolio's body against the schema of its import DTO; the bytes of each
/// writer on the shipped examples pinned (`TRADEPORT_REGENERATE=1` records them anew).
@Suite("Writers into Beancount, hledger, Ghostfolio and Portfolio Performance")
struct BookWriterTests {
    static let examples = ["formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv", "formats/samples/degiro-example.csv"]

    /// Inputs of one conversion each: the examples we ship, together and each sample of
    /// formats/samples alone, a sale out of lots bought in two other currencies and past them, the
    /// real DSX and Tinkoff samples, each T-Bank report of ../shared/realworld/tinkoff and each
    /// real CSV export of ../shared/realworld.
    static let sets: [[String]] = {
        var sets = [
            examples, [crossCurrency], [punctuated], ["../shared/samples/dsx-trades.csv", "../shared/samples/dsx-transactions.csv"],
            ["../shared/samples/tinkoff-broker-report.xlsx"]
        ]
        for name in CLI.entries(CLI.repositoryRoot + "/formats/samples") where name.hasSuffix(".csv") { sets.append(["formats/samples/" + name]) }
        for folder in ["tinkoff", "brokers", "crypto"] {
            let dir = "../shared/realworld/" + folder
            for name in CLI.entries(CLI.repositoryRoot + "/" + dir) where name.hasSuffix(".xlsx") || name.hasSuffix(".csv") { sets.append([dir + "/" + name]) }
        }
        return sets
    }()

    /// ETH bought in USD and in EUR, sold for BTC past what is held, the short bought back in BTC
    /// (Kraken's layout).
    static let crossCurrency = "Tests/TradeportEndToEndTests/Fixtures/cross-currency-lots.csv"

    /// Tickers with the punctuation real exchanges print (`BRK.B`, `BF-B`, `BRK/B`, `RDS.A`,
    /// `XETR:SAP`, `TGLD@`), two of them beside the code their target form would collide with
    /// (`BRK-B`, `TGLD`), in tradeport's own CSV layout.
    static let punctuated = "Tests/TradeportEndToEndTests/Fixtures/punctuated-tickers.csv"

    static let haveBeancount = (try? CLI.shell("bean-check", ["--version"]))?.status == 0
    static let haveHledger = (try? CLI.shell("hledger", ["--version"]))?.status == 0

    static func present(_ inputs: [String]) -> Bool {
        inputs.allSatisfy { FileManager.default.fileExists(atPath: path($0)) }
    }

    /// An input's path: relative to the repository, or absolute (a fixture written by a test).
    static func path(_ input: String) -> String { input.hasPrefix("/") ? input : CLI.repositoryRoot + "/" + input }

    /// tradeport's own balances of portfolio main, from zero: asset → units.
    static func ownBalances(_ inputs: [String]) throws -> [String: Decimal] {
        var out: [String: Decimal] = [:]
        for b in try report(inputs).balances where b.portfolio == "main" {
            let amount = try #require(b.amount, "\(b.asset) untracked")
            if !amount.isZero { out[b.asset.description] = Decimal(string: "\(amount)")! }
        }
        return out
    }

    /// The conversion's report, from the library.
    static func report(_ inputs: [String]) throws -> ConversionReport {
        final class Nothing: ConversionSink {
            func write(_ operation: PortfolioOperation, portfolio: String) throws {}
            func write(_ skipped: SkippedRow) throws {}
            func write(_ rejected: RejectedRow) throws {}
            func finish(_ report: ConversionReport) throws {}
        }
        let registry = try FormatCatalog.load(workingDirectory: CLI.repositoryRoot).registry
        let prepared = try Inputs.prepare(inputs.map { InputRequest(path: path($0), format: nil) }, registry: registry)
        return try Inputs.convert(prepared, options: ConversionOptions(), into: Nothing())
    }

    /// What a ledger holds in portfolio main's assets, plus its opening entries taken back out:
    /// asset → units, as `ledger-balances.py` reads it with the tool's own library.
    static func ledgerBalances(_ tool: String, _ path: String, portfolioPart: String) throws -> [String: Decimal] {
        let r = try CLI.shell("python3", [CLI.fixtures + "/ledger-balances.py", tool, path])
        #expect(r.status == 0, "\(r.output)")
        var out: [String: Decimal] = [:]
        for line in r.output.split(separator: "\n") {
            let f = line.split(separator: "\t").map(String.init)
            guard f.count == 3 else { continue }
            if f[0].hasPrefix("Assets:\(portfolioPart):") || f[0] == "Equity:\(portfolioPart):Opening-Balances" {
                out[f[1], default: 0] += Decimal(string: f[2])!
            }
        }
        return out.filter { $0.value != 0 }
    }

    func convert(_ inputs: [String], to writer: String, _ extra: [String] = []) throws -> (path: String, result: CLI.Result) {
        let path = try CLI.temporaryDirectory() + "/out." + writer
        let r = try CLI.run(["convert"] + inputs + ["--to", writer, "-o", path] + extra)
        // 1: written, with rows rejected (the real exports of trading212, xtb, binance and coinbase
        // hold rows that cannot be read, and say so).
        #expect(r.status == 0 || (r.status == 1 && r.stderr.contains("\nrejected (")), "\(r.stderr)")
        return (path, r)
    }

    @Test(.enabled(if: haveBeancount, "bean-check is not installed (pip install beancount)"), arguments: sets)
    func beanCheckAcceptsTheLedgerAndItsBalancesAreTradeports(_ inputs: [String]) throws {
        guard Self.present(inputs) else { return }
        let (path, _) = try convert(inputs, to: "beancount")
        let check = try CLI.shell("bean-check", [path])
        #expect(check.status == 0, "\(inputs): \(check.output)")
        #expect(try Self.ledgerBalances("beancount", path, portfolioPart: "Main") == Self.ownBalances(inputs), "\(inputs)")
    }

    /// Lots whose cost is in another currency than the sale's are closed by naming that currency
    /// (`{USD}`: with `{} @ 0.054 BTC` Beancount looks for lots costing BTC and finds none), and the
    /// units sold past them go into a transaction of their own (Beancount books each currency of
    /// cost against the balance before the transaction, where the lots just closed still stand).
    @Test(.enabled(if: haveBeancount, "bean-check is not installed (pip install beancount)"))
    func lotsBoughtInOtherCurrenciesAreClosedByTheirCurrency() throws {
        let (path, _) = try convert([Self.crossCurrency], to: "beancount")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text.contains(
                """
                2024-03-03 * "Sell 0.2 ETH at 0.054 BTC: the 0.15 held"
                """))
        #expect(
            text.contains(
                "  Assets:Main:Securities:ETH  -0.1 ETH {USD}\n  Assets:Main:Securities:ETH  -0.05 ETH {EUR}\n  Assets:Main:Cash:BTC  0.0081 BTC\n  Income:Main:Gains\n"
            ))
        #expect(
            text.contains(
                """
                2024-03-03 * "Sell 0.2 ETH at 0.054 BTC: the 0.05 beyond those held"
                """))
        #expect(text.contains("  Assets:Main:Securities:ETH  -0.05 ETH {0.054 BTC}\n  Assets:Main:Cash:BTC  0.0027 BTC\n"))
        // The short is bought back in the currency it was sold in: the usual `{} @ price`.
        #expect(text.contains("  Assets:Main:Securities:ETH  0.05 ETH {} @ 0.05 BTC\n"))
        #expect(try CLI.shell("bean-check", [path]).status == 0)
    }

    @Test(.enabled(if: haveHledger, "hledger is not installed (apt install hledger)"), arguments: sets)
    func hledgerChecksTheJournalAndItsBalancesAreTradeports(_ inputs: [String]) throws {
        guard Self.present(inputs) else { return }
        let (path, _) = try convert(inputs, to: "hledger")
        let check = try CLI.shell("hledger", ["-f", path, "check", "--strict", "ordereddates"])
        #expect(check.status == 0, "\(inputs): \(check.output)")
        #expect(try Self.ledgerBalances("hledger", path, portfolioPart: "main") == Self.ownBalances(inputs), "\(inputs)")
    }

    /// Names and notes holding NUL, BEL, ESC, DEL, tabs and line breaks (and text a spreadsheet
    /// would run), read from tradeport's JSON Lines: every writer into another tool puts them on
    /// one line without a control character (`TargetText`), and the tools accept what it wrote.
    @Test(.enabled(if: haveBeancount && haveHledger))
    func controlCharactersFollowOneRuleInEveryTargetsFile() throws {
        let input = "Tests/TradeportEndToEndTests/Fixtures/control-characters.jsonl"
        func controls(_ path: String) throws -> [UInt8] {
            try Array(Data(contentsOf: URL(fileURLWithPath: path))).filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
        }
        let (bean, _) = try convert([input], to: "beancount")
        #expect(try controls(bean).isEmpty)
        #expect(try CLI.shell("bean-check", [bean]).status == 0)
        let (journal, _) = try convert([input], to: "hledger")
        #expect(try controls(journal).isEmpty)
        let check = try CLI.shell("hledger", ["-f", journal, "check", "--strict", "ordereddates"])
        #expect(check.status == 0, "\(check.output)")
        #expect(try String(contentsOfFile: journal, encoding: .utf8).contains("Bell Esc[31m Nul Tab  CR  LF  Del end"))
        let (ghostfolio, _) = try convert([input], to: "ghostfolio")
        let body = try String(contentsOfFile: ghostfolio, encoding: .utf8)
        #expect(!body.contains("\\u0000") && !body.contains("\\u001b") && !body.contains("\\u0007"), "\(body)")
        let dir = try CLI.temporaryDirectory() + "/pp"
        let pp = try CLI.run(["convert", CLI.repositoryRoot + "/" + input, "--to", "portfolio-performance", "-o", dir])
        #expect(pp.status == 0, "\(pp.stderr)")
        for file in try FileManager.default.contentsOfDirectory(atPath: dir) {
            #expect(try controls(dir + "/" + file).filter { $0 != 0x0D }.isEmpty, "\(file)")
            #expect(try !String(contentsOfFile: dir + "/" + file, encoding: .utf8).contains("\r LF"), "\(file)")
        }
    }

    /// Beancount works to 28 significant digits: a transaction needing more would be rounded and
    /// refused as unbalanced, so it is not written but counted; hledger, exact, writes it.
    @Test(.enabled(if: haveBeancount && haveHledger))
    func numbersBeyondBeancountsPrecisionAreCountedNotWritten() throws {
        let header =
            "kind,portfolio,id,externalId,time,side,base,quote,quantity,price,amount,accruedInterest,fee.broker,fee.broker.currency,fee.exchange,fee.exchange.currency,fee.clearing,fee.clearing.currency,fee.other,fee.other.currency,isin,name,venue,settlementDate,account,orderId,pricePercent,nominal,type,asset,fee,feeCurrency,status,security,note,counterparty,txHash,address,direction,reason"
        func deposit(_ amount: String, _ day: Int) -> String {
            "transaction,main,,,2024-01-0\(day)T10:00:00Z,,,,,,\(amount),,,,,,,,,,,,,,,,,,deposit,USD,,,complete,,,,,,,"
        }
        let text = [header, deposit("100", 1), deposit("1234567890123456789012345678.9012345678", 2), deposit("0.5", 3)].joined(separator: "\n") + "\n"
        let input = try CLI.temporaryDirectory() + "/wide.csv"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let (bean, r) = try convert([input], to: "beancount")
        #expect(r.stderr.contains("not carried: 1 transactions whose numbers need more than 28 significant digits, which Beancount works to"), "\(r.stderr)")
        #expect(try CLI.shell("bean-check", [bean]).status == 0)
        #expect(try Self.ledgerBalances("beancount", bean, portfolioPart: "Main") == ["USD": Decimal(string: "100.5")!])
        let (journal, _) = try convert([input], to: "hledger")
        #expect(try CLI.shell("hledger", ["-f", journal, "check", "--strict", "ordereddates"]).status == 0)
        #expect(try String(contentsOfFile: journal, encoding: .utf8).contains("Assets:main:Cash:USD  1234567890123456789012345678.9012345678 USD\n"))
    }

    /// Portfolio Performance keeps money in a 64-bit integer of cents and shares of 10^-8, and
    /// Ghostfolio doubles: a number beyond PP's range is counted as not carried, never written for
    /// its import to wrap; decimals past what each keeps are written and said to be rounded there.
    @Test func numbersBeyondPortfolioPerformanceAndGhostfolioAreSaid() throws {
        let header =
            "kind,portfolio,id,externalId,time,side,base,quote,quantity,price,amount,accruedInterest,fee.broker,fee.broker.currency,fee.exchange,fee.exchange.currency,fee.clearing,fee.clearing.currency,fee.other,fee.other.currency,isin,name,venue,settlementDate,account,orderId,pricePercent,nominal,type,asset,fee,feeCurrency,status,security,note,counterparty,txHash,address,direction,reason"
        func dividend(_ amount: String, _ day: Int) -> String {
            "transaction,main,,,2024-01-0\(day)T10:00:00Z,,,,,,\(amount),,,,,,,,,,,,,,,,,,dividend,USD,,,complete,AAPL,,,,,,"
        }
        let buy =
            "trade,main,,,2024-01-04T10:00:00Z,buy,AAPL,USD,0.123456789,185.12345678901234567,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
        let text = [header, dividend("10", 1), dividend("92233720368547758.08", 2), dividend("0.125", 3), buy].joined(separator: "\n") + "\n"
        let dir = try CLI.temporaryDirectory()
        let input = dir + "/wide.csv"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let pp = try CLI.run(["convert", input, "--to", "portfolio-performance", "-o", dir + "/pp"])
        #expect(pp.status == 0, "\(pp.stderr)")
        #expect(
            pp.stderr.contains(
                "portfolio-performance: not carried: 1 operations with a number beyond what Portfolio Performance holds (money to 92233720368547758.07, shares to 92233720368.54775807)"
            ), "\(pp.stderr)")
        #expect(
            pp.stderr.contains(
                "portfolio-performance: written as Portfolio Performance can hold them: 2 operations with more decimals than Portfolio Performance keeps (2 for money, 8 for shares), which its import rounds"
            ), "\(pp.stderr)")
        let account = try String(contentsOfFile: dir + "/pp/account-transactions.csv", encoding: .utf8)
        #expect(!account.contains("92233720368547758.08") && account.contains("0.125"))
        let (ghostfolio, g) = try convert([input], to: "ghostfolio")
        #expect(
            g.stderr.contains(
                "ghostfolio: written as Ghostfolio can hold them: 2 activities with a number of more than 15 significant digits, which Ghostfolio keeps as a binary double (rounded)"
            ), "\(g.stderr)")
        #expect(try String(contentsOfFile: ghostfolio, encoding: .utf8).contains("185.12345678901234567"))
    }

    /// The 2026 T-Bank layout (`TBankReport2026`): the `TGLD@` ticker, the headerless section 2
    /// and the re-keyed security reach both ledgers, which accept them and hold tradeport's balances;
    /// each balance the report prints is asserted.
    @Test(.enabled(if: haveBeancount && haveHledger))
    func theTBank2026LayoutReachesBothLedgers() throws {
        let input = try TBankReport2026.write()
        let (bean, _) = try convert([input], to: "beancount")
        #expect(try CLI.shell("bean-check", [bean]).status == 0)
        #expect(try Self.ledgerBalances("beancount", bean, portfolioPart: "Main") == Self.ownBalances([input]))
        let (journal, _) = try convert([input], to: "hledger")
        let check = try CLI.shell("hledger", ["-f", journal, "check", "--strict", "ordereddates"])
        #expect(check.status == 0, "\(check.output)")
        #expect(try Self.ledgerBalances("hledger", journal, portfolioPart: "main") == Self.ownBalances([input]))
        let text = try String(contentsOfFile: bean, encoding: .utf8)
        #expect(text.contains("commodity TGLD\n  tradeport-asset: \"TGLD@\""))
        #expect(try String(contentsOfFile: journal, encoding: .utf8).components(separatedBy: "Balance assertion").count - 1 == 7)
        // Codes with punctuation are valid in the published schema too.
        if CLI.canValidateSchema {
            for source in [input, CLI.repositoryRoot + "/" + Self.punctuated] {
                let json = try CLI.temporaryDirectory() + "/out.json"
                #expect(try CLI.run(["convert", source, "-o", json, "-q"]).status == 0)
                let v = try CLI.validateSchema(json)
                #expect(v.status == 0, "\(v.output)")
            }
        }
    }

    @Test(
        .enabled(if: haveBeancount && haveHledger),
        arguments: ["../shared/realworld/tinkoff/tbank-2021-full-year.xlsx", "../shared/realworld/tinkoff/tbank-2024-full-year.xlsx"])
    func everyReconciledBalanceIsAssertedAndHolds(_ input: String) throws {
        guard Self.present([input]) else { return }
        let (bean, _) = try convert([input], to: "beancount")
        let (journal, _) = try convert([input], to: "hledger")
        let reconciled = try Self.report([input]).reconciliation.filter(\.reconciles).count
        #expect(reconciled == (input.contains("2021") ? 16 : 68))
        let text = try String(contentsOfFile: bean, encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.range(of: #"^\d{4}-\d{2}-\d{2} balance "#, options: .regularExpression) != nil }.count == reconciled)
        #expect(try String(contentsOfFile: journal, encoding: .utf8).components(separatedBy: "Balance assertion").count - 1 == reconciled)
        // A wrong assertion fails: the tools do check them.
        let wrong = text.replacingOccurrences(of: #"(balance \S+\s+)(\d)"#, with: "$19$2", options: .regularExpression)
        try wrong.write(toFile: bean + ".wrong", atomically: true, encoding: .utf8)
        #expect(try CLI.shell("bean-check", [bean + ".wrong"]).status != 0)
    }

    @Test(.enabled(if: CLI.canValidateSchema, "python3 with jsonschema is not installed"), arguments: sets)
    func ghostfoliosBodyHoldsToItsImportDTO(_ inputs: [String]) throws {
        guard Self.present(inputs) else { return }
        let (path, r) = try convert(inputs, to: "ghostfolio")
        let v = try CLI.shell("python3", [CLI.repositoryRoot + "/schema/validate.py", CLI.repositoryRoot + "/schema/ghostfolio-import.schema.json", path])
        #expect(v.status == 0, "\(inputs): \(v.output)")
        if inputs == Self.examples {
            #expect(r.stderr.contains("ghostfolio: not carried: 7 deposits (Ghostfolio keeps cash as the account's balance)"), "\(r.stderr)")
        }
    }

    @Test func manualDataSourceNamesSymbolsAsGhostfolioRequires() throws {
        let (path, _) = try convert(Self.examples, to: "ghostfolio", ["--data-source", "MANUAL"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"symbol\": \"GF_BTC\""))
        if CLI.canValidateSchema {
            #expect(
                try CLI.shell("python3", [CLI.repositoryRoot + "/schema/validate.py", CLI.repositoryRoot + "/schema/ghostfolio-import.schema.json", path])
                    .status == 0)
        }
    }

    /// The bytes of each writer on the shipped examples.
    @Test(arguments: ["beancount", "hledger", "ghostfolio", "portfolio-performance"])
    func theExamplesGiveTheRecordedOutput(_ writer: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["convert"] + Self.examples + ["--to", writer, "-o", dir + "/out", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let produced: [(String, String)] =
            writer == "portfolio-performance"
            ? PortfolioPerformanceSink.files.map { (dir + "/out/" + $0, "examples-pp-" + $0) }
            : [(dir + "/out", "examples." + writer)]
        for (path, name) in produced {
            let expected = CLI.fixtures + "/expected/writers/" + name
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            if ProcessInfo.processInfo.environment["TRADEPORT_REGENERATE"] == "1" {
                try data.write(to: URL(fileURLWithPath: expected))
            }
            #expect(data == (try Data(contentsOf: URL(fileURLWithPath: expected))), "\(name) differs from what was recorded")
        }
    }

    @Test func accountTemplatesComeFromOptionsAndAFile() throws {
        let dir = try CLI.temporaryDirectory()
        try "# roles\nfees: Expenses:Broker:{portfolio}\ntransfers: 'Equity:Bank'\n".write(toFile: dir + "/accounts", atomically: true, encoding: .utf8)
        let r = try CLI.run(
            ["convert"] + Self.examples + ["--to", "hledger", "--accounts", dir + "/accounts", "--account", "cash=Assets:Exchange:{asset}", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Expenses:Broker:main  "))
        #expect(r.stdout.contains("Equity:Bank  "))
        #expect(r.stdout.contains("Assets:Exchange:USD  "))
        let bad = try CLI.run(["convert"] + Self.examples + ["--to", "hledger", "--account", "cashier=Assets:X"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'cashier' is not a role"))
        let beancount = try CLI.run(["convert"] + Self.examples + ["--to", "beancount", "--account", "fees=Costs:{portfolio}"])
        #expect(beancount.status == 2 || beancount.status == 3, "\(beancount.stderr)")
        #expect(beancount.stderr.contains("does not start with Assets, Liabilities, Equity, Income or Expenses"))
    }

    @Test func portfolioPerformanceNeedsADirectory() throws {
        let r = try CLI.run(["convert"] + Self.examples + ["--to", "portfolio-performance"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("give the directory to write them in with -o DIR"))
        let dir = try CLI.temporaryDirectory()
        let ok = try CLI.run(["convert"] + Self.examples + ["--to", "portfolio-performance", "-o", dir + "/pp"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(CLI.entries(dir + "/pp") == PortfolioPerformanceSink.files.sorted())
        let portfolio = try String(contentsOfFile: dir + "/pp/portfolio-transactions.csv", encoding: .utf8)
        #expect(
            portfolio.hasPrefix(
                "Date,Time,Type,Value,Transaction Currency,Fees,Taxes,Shares,ISIN,Ticker Symbol,Security Name,Note,Securities Account,Cash Account\n"))
    }

    /// Portfolio Performance's import takes a Transaction Currency it does not know (BTC) as the
    /// base currency: such amounts are counted as not carried, never written.
    @Test func portfolioPerformanceCarriesNoAmountInACoin() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run([
            "convert", "formats/samples/kraken-trades-example.csv", "formats/samples/dsx-transactions-example.csv",
            "--to", "portfolio-performance", "-o", dir + "/pp"
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "portfolio-performance: not carried: 1 trades quoted in BTC, a currency Portfolio Performance does not know (its import would take it as the base currency)"
            ), "\(r.stderr)")
        #expect(r.stderr.contains("portfolio-performance: not carried: 2 deposits in BTC, a currency Portfolio Performance does not know"), "\(r.stderr)")
        for file in PortfolioPerformanceSink.files {
            let text = try String(contentsOfFile: dir + "/pp/" + file, encoding: .utf8)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                #expect(PortfolioPerformanceSink.currencies.contains(String(fields[4])), "\(file): \(line)")
            }
        }
        // A coin bought with money is a security there: written.
        let portfolio = try String(contentsOfFile: dir + "/pp/portfolio-transactions.csv", encoding: .utf8)
        #expect(portfolio.contains(",Buy,395.632,EUR,0.632,,0.01,,BTC,BTC,"))
    }

    @Test func datesFollowTheZoneAsked() throws {
        let utc = try CLI.run(["convert", "formats/samples/dsx-trades-example.csv", "--to", "hledger", "-q"])
        let far = try CLI.run(["convert", "formats/samples/dsx-trades-example.csv", "--to", "hledger", "--dates-in", "Pacific/Kiritimati", "-q"])
        // 2021-02-28T23:59:59Z is 2021-03-01 at UTC+14.
        #expect(utc.stdout.contains("2021-02-28 Buy 1000 USDT"))
        #expect(far.stdout.contains("2021-03-01 Buy 1000 USDT"))
    }
}
