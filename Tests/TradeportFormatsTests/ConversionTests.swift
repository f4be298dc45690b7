import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

@Suite("Duplicates, overlaps and warnings")
struct ConversionTests {
    let trades = BuiltIn.dsxTrades
    let rows = (1...6).map { i in
        "2019-11-2\(i) 8:08:44;btcusd;Buy;0,\(i);BTC;9000;USD;\(900 * i);USD;0;USD;Invest;\(100 + i);\(500 + i)"
    }

    @Test func overlappingExportsConvertToTheirUnion() throws {
        let first = try TestKit.writeTemporaryFile(rows[0...3].joined(separator: "\n"), name: "a.csv")
        let second = try TestKit.writeTemporaryFile(rows[2...5].joined(separator: "\n"), name: "b.csv")
        let doc = try TestKit.convert(paths: [first, second], with: trades)
        #expect(doc.allTrades.map(\.externalId) == ["101", "102", "103", "104", "105", "106"])
        #expect(doc.sources.map(\.duplicates) == [0, 2])
        #expect(doc.sources.map(\.operations) == [4, 2])
        for s in doc.sources { #expect(s.rows == s.operations + s.skipped + s.rejected + s.duplicates) }
    }

    @Test func theSameExportTwiceYieldsEachOperationOnce() throws {
        let path = try TestKit.writeTemporaryFile(rows.joined(separator: "\n"))
        let doc = try TestKit.convert(paths: [path, path], with: trades)
        #expect(doc.allTrades.count == 6)
        #expect(doc.sources.map(\.duplicates) == [0, 6])
    }

    @Test func aConflictingDuplicateIsRejectedNamingTheOtherRow() throws {
        let changed = rows[1].replacingOccurrences(of: "0,2;BTC", with: "0,25;BTC")
        let first = try TestKit.writeTemporaryFile(rows.joined(separator: "\n"), name: "a.csv")
        let second = try TestKit.writeTemporaryFile(changed, name: "b.csv")
        let doc = try TestKit.convert(paths: [first, second], with: trades)
        #expect(doc.allTrades.count == 6)
        let reject = try #require(doc.rejected.first)
        #expect(reject.raw == changed)
        #expect(reject.errors.first?.message == "conflicts with row 2 of \(first): same id dsx-trades:102, different content")
        #expect(doc.sources[1].rejected == 1)
    }

    @Test func equalValuesWrittenDifferentlyAreDuplicatesNotConflicts() throws {
        let same = rows[0].replacingOccurrences(of: ";9000;", with: ";9000,00;")
        let doc = try TestKit.convert(
            paths: [
                try TestKit.writeTemporaryFile(rows[0], name: "a.csv"), try TestKit.writeTemporaryFile(same, name: "b.csv")
            ], with: trades)
        #expect(doc.rejected.isEmpty && doc.sources[1].duplicates == 1)
    }

    @Test func negativeBalanceIsWarnedOncePerAssetAtTheFirstOperation() throws {
        let text = [
            "2019-01-03 10:00:00;Withdraw;USD;30;0;Main;Bank;Complete;;3;;;",
            "2019-01-02 10:00:00;Withdraw;USD;80;0;Main;Bank;Complete;;2;;;",
            "2019-01-01 10:00:00;Deposit;USD;100;0;Bank;Main;Complete;;1;;;"
        ].joined(separator: "\n")
        let doc = try TestKit.convert(text, with: BuiltIn.dsxTransactions)
        #expect(doc.warnings.count == 1)
        let w = try #require(doc.warnings.first)
        #expect(w.code == "negative-balance")
        #expect(w.source?.row == 1)  // the 2019-01-03 withdrawal, first in the file, last in time
        #expect(w.message.contains("USD") && w.message.contains("main") && w.message.contains("-10"))
    }

    @Test func operationsAreSortedByTimeWithinAPortfolio() throws {
        let doc = try TestKit.convert(rows.reversed().joined(separator: "\n"), with: trades)
        let times = doc.allTrades.map(\.time)
        #expect(times == times.sorted())
    }

    @Test func registryListsAndDetects() {
        // The built-in specs in file-name order, then the code readers.
        let ids = [
            "avanza", "binance", "bitpanda", "bitvavo", "bux", "coinbase", "coinbasepro-fills", "coinbasepro", "cryptocom",
            "degiro-transactions", "degiro", "dsx-trades", "dsx-transactions", "etoro", "fidelity", "flatex-cash", "flatex-depot-at",
            "flatex-depot", "freetrade", "ibkr-cash", "ibkr-confirms", "ibkr-trades", "ii", "kraken-ledger", "kraken-trades", "nordnet",
            "questrade-executions", "questrade", "revolut-crypto", "revolut-invest", "saxo", "scalable", "schwab", "swissquote",
            "tastytrade", "tastyworks", "tradeport-csv", "tradeport-xlsx", "traderepublic", "trading212", "vanguard", "xtb",
            "tinkoff-report", "ibkr-activity", "tradeport-json"
        ]
        #expect(FormatRegistry.builtIn.ids == ids)
        let probe = FormatProbe(name: "x.csv", head: Array("hello, world\n".utf8), isWholeInput: true)
        if case .none(let reasons) = FormatRegistry.builtIn.detect(probe) {
            #expect(reasons.map(\.id) == ids)
        } else {
            Issue.record("a text file of another kind was claimed")
        }
    }
}

/// An reader that claims every input, to make detection ambiguous.
struct ClaimsEverything: FormatReader {
    let id = "claims-everything"
    let summary = "claims every input"
    func detect(_ probe: FormatProbe) -> Detection { .match }
    func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {}
}

@Suite("Detection across the registry")
struct DetectionTests {
    @Test func aTieNamesTheFormatsThatMatched() {
        let registry = FormatRegistry(readers: [BuiltIn.dsxTrades, ClaimsEverything(), BuiltIn.dsxTransactions])
        let probe = FormatProbe(name: "t.csv", head: Array(goodTrade.utf8), isWholeInput: true)
        guard case .ambiguous(let ids) = registry.detect(probe) else {
            Issue.record("expected a tie")
            return
        }
        #expect(ids == ["dsx-trades", "claims-everything"])
    }
}

/// A minimal reader without venue ids: each line `seconds;asset;amount` is a deposit.
struct DepositsWithoutIds: FormatReader {
    let id = "plain-deposits"
    let summary = "deposits without ids, for tests"
    func detect(_ probe: FormatProbe) -> Detection { .noMatch("tests only") }
    func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        for (i, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n").enumerated() {
            let f = line.split(separator: ";").map(String.init)
            let deposit = CashTransaction(
                externalId: nil, time: Timestamp(secondsSinceEpoch: Int64(f[0])!), type: .deposit,
                asset: AssetCode(f[1])!, amount: ExactDecimal(f[2]), source: SourceLocation(path: input.path, row: i + 1))
            try emit(.operation(.transaction(deposit)), { String(line) })
        }
    }
}

@Suite("Ids without venue ids")
struct ContentIdTests {
    @Test func identicalRowsStayDistinctWithinASourceAndCollapseAcrossSources() throws {
        let text = "100;USD;5\n100;USD;5\n200;EUR;1"
        let a = try TestKit.writeTemporaryFile(text, name: "a.csv")
        let b = try TestKit.writeTemporaryFile(text, name: "b.csv")
        let doc = try TestKit.convert(paths: [a, b], with: DepositsWithoutIds())
        let ids = doc.allTransactions.map(\.id)
        #expect(ids.count == 3)
        #expect(ids.allSatisfy { $0.range(of: #"^plain-deposits:~[0-9a-f]{20}\.[12]$"#, options: .regularExpression) != nil })
        #expect(ids[0].dropLast(2) == ids[1].dropLast(2) && ids[0] != ids[1])
        #expect(doc.sources.map(\.duplicates) == [0, 3])
        // Stable across runs: the same content gives the same id.
        let again = try TestKit.convert(paths: [b], with: DepositsWithoutIds())
        #expect(again.allTransactions.map(\.id) == ids)
    }
}
