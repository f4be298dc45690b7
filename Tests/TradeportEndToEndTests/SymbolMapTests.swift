import Foundation
import Testing
import TradeportCore
import TradeportFormats

/// The symbol map a user keeps (`--symbols FILE`): how it is read (every problem located), how
/// an entry is found, and what `--to ghostfolio` and `--to portfolio-performance` do with it.
@Suite("the symbol map")
struct SymbolMapTests {
    func parse(_ text: String) throws(SymbolMapFile.Failure) -> SymbolMap {
        try SymbolMapFile.parse(Array(text.utf8), path: "symbols.csv")
    }

    func failure(_ text: String) -> String {
        do {
            _ = try parse(text)
            return ""
        } catch {
            return error.description
        }
    }

    @Test func everyProblemIsAnErrorNamingItsLine() {
        #expect(
            failure("isin,symbol,ticker\n")
                == "symbols.csv:1: unknown column 'ticker' (expected columns among isin, code, venue, target, symbol, data_source, name)")
        #expect(failure("isin,code\n").hasPrefix("symbols.csv:1: the header needs a symbol column"))
        #expect(failure("isin,symbol\nUS037833100,AAPL\n") == "symbols.csv:2: 'US037833100' is not an ISIN (two letters, nine letters or digits, a digit)")
        #expect(failure("code,symbol\n,AAPL\n") == "symbols.csv:2: an isin or a code is needed to find the security by")
        #expect(failure("code,symbol\nAAPL,\n") == "symbols.csv:2: no symbol")
        #expect(failure("code,symbol,data_source\nOFZ,OFZ26238,MANUAL\n").hasPrefix("symbols.csv:2: symbol 'OFZ26238': Ghostfolio takes a MANUAL symbol only"))
        #expect(failure("code,symbol,data_source\nAAPL,AAPL,yahoo\n").hasPrefix("symbols.csv:2: data source 'yahoo'"))
        #expect(failure("code,symbol,target\nAAPL,AAPL,ledger\n").hasPrefix("symbols.csv:2: unknown target 'ledger'"))
        #expect(
            failure("code,venue,symbol\nSBER,MOEX,SBER.ME\n# a note\nsber,moex,SBER.ME\n")
                == "symbols.csv:4: the same security is mapped at symbols.csv:2 already")
        #expect(
            failure("# only a note\n")
                == "symbols.csv: the symbol map has no header line (expected columns among isin, code, venue, target, symbol, data_source, name)")
    }

    @Test func anEntryIsFoundByISINThenCodeAndVenueThenCodeAndATargetsOwnLineWins() throws {
        let map = try parse(
            """
            isin;code;venue;target;symbol;data_source;name
            RU0009029540;;;;SBER.ME;YAHOO;
            ;SBER;SPB;;SBER-SPB;YAHOO;
            ;SBER;;;SBER-ANY;;
            ;SBER;;portfolio-performance;SBER.PP;;
            US0378331005;;;ghostfolio;GF_APPLE;MANUAL;Apple Inc.
            """)
        #expect(map.lookup(target: "ghostfolio", code: "SBER", isin: "RU0009029540")?.symbol == "SBER.ME")
        #expect(map.lookup(target: "ghostfolio", code: "SBER", venue: "spb")?.symbol == "SBER-SPB")
        #expect(map.lookup(target: "ghostfolio", code: "sber", venue: "MOEX")?.symbol == "SBER-ANY")
        #expect(map.lookup(target: "portfolio-performance", code: "SBER")?.symbol == "SBER.PP")
        // A code that has the form of an ISIN is looked up as one.
        #expect(map.lookup(target: "ghostfolio", code: "US0378331005")?.name == "Apple Inc.")
        #expect(map.lookup(target: "portfolio-performance", code: "US0378331005") == nil)
        #expect(map.lookup(target: "ghostfolio", code: "GAZP") == nil)
    }

    @Test func aLineWithBothKeysIsFoundByEitherAndACodesOnlyVenueServesASourceWithout() throws {
        // A comment line above the header, with the other delimiter in it, does not decide it.
        let map = try parse(
            """
            # symbols; kept by hand
            isin,code,venue,symbol,data_source
            RU0009024277,LKOH,,LKOH.ME,YAHOO
            ,GAZP,MOEX,GAZP.ME,YAHOO
            ,ROSN,MOEX,ROSN.ME,YAHOO
            ,ROSN,SPB,ROSN-SPB,YAHOO
            """)
        #expect(map.lookup(target: "ghostfolio", code: "LKOH")?.symbol == "LKOH.ME")
        #expect(map.lookup(target: "ghostfolio", code: "RU0009024277")?.symbol == "LKOH.ME")
        #expect(map.lookup(target: "ghostfolio", code: "GAZP")?.symbol == "GAZP.ME")
        #expect(map.lookup(target: "ghostfolio", code: "ROSN") == nil, "two venues: which one is not guessed")
        #expect(map.lookup(target: "ghostfolio", code: "ROSN", venue: "SPB")?.symbol == "ROSN-SPB")
    }

    @Test func ghostfolioTakesMappedSymbolsAndListsTheRest() throws {
        let dir = try CLI.temporaryDirectory()
        try "isin,symbol,data_source\nUS5949181045,MSFT,YAHOO\nIE00B4L5Y983,GF_IWDA,MANUAL\n".write(
            toFile: dir + "/symbols.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["convert", "formats/samples/degiro-example.csv", "--to", "ghostfolio", "-o", dir + "/out.json", "--symbols", dir + "/symbols.csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: dir + "/out.json", encoding: .utf8)
        #expect(text.contains(#""dataSource": "YAHOO", "date": "2023-11-16T06:31:00Z", "fee": 0, "quantity": 1, "symbol": "MSFT", "type": "DIVIDEND""#))
        #expect(text.contains(#""symbol": "GF_IWDA", "type": "SELL""#))
        #expect(
            text.contains(
                #"{"currency": "EUR", "dataSource": "MANUAL", "isin": "IE00B4L5Y983", "name": "ISHARES CORE MSCI WORLD UCITS ETF (IE00B4L5Y983)", "symbol": "GF_IWDA"}"#
            ))
        #expect(!text.contains(#""symbol": "MSFT"}"#), "a YAHOO symbol needs no custom profile")
        #expect(
            r.stderr.contains(
                "ghostfolio: 1 security has no symbol in the map, written as custom (MANUAL) profiles of their own: NL0009272749 ×1"),
            "\(r.stderr)")
        // The same file gives the same body: the symbols of custom profiles are made from the code.
        let again = try CLI.run([
            "convert", "formats/samples/degiro-example.csv", "--to", "ghostfolio", "-o", dir + "/again.json", "--symbols", dir + "/symbols.csv"
        ])
        #expect(again.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/again.json")) == Data(contentsOf: URL(fileURLWithPath: dir + "/out.json")))
        // A broken map stops the conversion before anything is written, naming the line.
        try "isin,symbol\nXX,MSFT\n".write(toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["convert", "formats/samples/degiro-example.csv", "--to", "ghostfolio", "-o", dir + "/bad.json", "--symbols", dir + "/bad.csv"])
        #expect(bad.status == 2 && bad.stderr.contains("bad.csv:2: 'XX' is not an ISIN"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/bad.json"))
    }

    @Test func portfolioPerformanceTakesTheMapsTickers() throws {
        let dir = try CLI.temporaryDirectory()
        try "code,target,symbol\nUS5949181045,portfolio-performance,MSFT\n".write(toFile: dir + "/symbols.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(
            ["convert", "formats/samples/degiro-example.csv", "--to", "portfolio-performance", "-o", dir + "/pp", "--symbols", dir + "/symbols.csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let trades = try String(contentsOfFile: dir + "/pp/portfolio-transactions.csv", encoding: .utf8)
        #expect(trades.contains(",US5949181045,MSFT,MICROSOFT CORPORATION,"), "\(trades)")
        let cash = try String(contentsOfFile: dir + "/pp/account-transactions.csv", encoding: .utf8)
        #expect(cash.contains(",US5949181045,MSFT,"), "\(cash)")
        #expect(
            r.stderr.contains(
                "portfolio-performance: 3 securities have no symbol in the map, written with their code as Ticker Symbol: IE00B4L5Y983 ×4, NL0009272749 ×2, NLFLATEXACNT ×2"
            ), "\(r.stderr)")
    }
}
