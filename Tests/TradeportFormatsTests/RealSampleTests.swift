import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// The real exports in ../shared/samples (outside the repository); these tests are skipped when
/// that folder is not there.
enum RealSamples {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/samples").path

    static func path(_ name: String) -> String? {
        let p = directory + "/" + name
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }

    static var available: Bool { path("dsx-trades.csv") != nil && path("dsx-transactions.csv") != nil }

    /// The file's rows split into fields, for computing expectations independently of the readers.
    static func rows(_ name: String) throws -> [[String]] {
        try String(contentsOfFile: path(name)!, encoding: .utf8)
            .split(whereSeparator: \.isNewline).map { $0.split(separator: ";", omittingEmptySubsequences: false).map(String.init) }
    }

    /// A reference sum computed with Foundation's Decimal from checked text (comma turned into a point).
    static func referenceSum(_ texts: [String]) -> Decimal {
        texts.reduce(Decimal(0)) { sum, text in
            let plain = text.replacingOccurrences(of: ",", with: ".")
            precondition(plain.range(of: #"^-?[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil, text)
            return sum + Decimal(string: plain)!
        }
    }

    static func sum(_ values: [ExactDecimal]) -> Decimal {
        let total = values.reduce(ExactDecimal.zero) { $0.adding($1)! }
        return Decimal(string: total.description)!
    }
}

@Suite("Real DSX exports", .enabled(if: RealSamples.available, "../shared/samples is not there"))
struct RealSampleTests {
    func convertBoth(_ options: ConversionOptions = ConversionOptions()) throws -> CanonicalDocument {
        let collector = DocumentCollector()
        let conversion = Conversion(options: options, sink: collector)
        try conversion.add(try SourceInput(path: RealSamples.path("dsx-trades.csv")!), reader: BuiltIn.dsxTrades)
        try conversion.add(try SourceInput(path: RealSamples.path("dsx-transactions.csv")!), reader: BuiltIn.dsxTransactions)
        try conversion.finish()
        return collector.document
    }

    @Test func countsAddUp() throws {
        let doc = try convertBoth()
        #expect(doc.allTrades.count == 35)
        #expect(doc.allTransactions.count == 103)
        #expect(doc.skipped.count == 14)
        #expect(doc.rejected.isEmpty)
        #expect(doc.sources.map(\.rows) == [35, 117])
        #expect(doc.sources.map(\.operations) == [35, 103])
        #expect(doc.sources.map(\.skipped) == [0, 14])
        for s in doc.sources { #expect(s.rows == s.operations + s.skipped + s.rejected + s.duplicates) }
        #expect(Set(doc.skipped.map(\.reason)) == ["failed transaction: it moved no money (--keep-failed outputs it)"])
        let ids = doc.allTrades.map(\.id) + doc.allTransactions.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test func tradeSumsPerAssetEqualTheFile() throws {
        let doc = try convertBoth()
        let rows = try RealSamples.rows("dsx-trades.csv")
        for base in Set(rows.map { $0[4] }) {
            let mine = doc.allTrades.filter { $0.base.text == base }
            #expect(RealSamples.sum(mine.map(\.quantity)) == RealSamples.referenceSum(rows.filter { $0[4] == base }.map { $0[3] }), "quantity \(base)")
        }
        for quote in Set(rows.map { $0[6] }) {
            let mine = doc.allTrades.filter { $0.quote.text == quote }
            let theirs = rows.filter { $0[6] == quote }
            #expect(RealSamples.sum(mine.map(\.price)) == RealSamples.referenceSum(theirs.map { $0[5] }), "price in \(quote)")
            #expect(RealSamples.sum(mine.compactMap(\.amount)) == RealSamples.referenceSum(theirs.map { $0[7] }), "amount in \(quote)")
        }
        for currency in Set(rows.map { $0[10] }) {
            let mine = doc.allTrades.flatMap(\.fees).filter { $0.currency.text == currency }
            #expect(RealSamples.sum(mine.map(\.amount)) == RealSamples.referenceSum(rows.filter { $0[10] == currency }.map { $0[9] }), "fees in \(currency)")
        }
    }

    @Test func transactionSumsPerAssetEqualTheFile() throws {
        let doc = try convertBoth()
        let rows = try RealSamples.rows("dsx-transactions.csv").filter { $0[7] == "Complete" }
        for asset in Set(rows.map { $0[2] }) {
            for (type, word) in [(CashTransactionType.deposit, "Deposit"), (.withdrawal, "Withdraw")] {
                let mine = doc.allTransactions.filter { $0.asset.text == asset && $0.type == type }
                let theirs = rows.filter { $0[2] == asset && $0[1] == word }
                #expect(mine.count == theirs.count)
                #expect(RealSamples.sum(mine.map(\.amount)) == RealSamples.referenceSum(theirs.map { $0[3] }), "\(word) \(asset)")
                #expect(RealSamples.sum(mine.compactMap(\.fee?.amount)) == RealSamples.referenceSum(theirs.map { $0[4] }), "\(word) fees \(asset)")
            }
        }
    }

    @Test func timesAreUTC() throws {
        let doc = try convertBoth()
        let first = try #require(doc.allTrades.first { $0.externalId == "37605094" })
        #expect(first.time.description == "2019-11-25T08:08:44Z")
        #expect(doc.allTrades.allSatisfy { $0.time.description.hasSuffix("Z") })
    }

    @Test func splitAccountsPutsEachSubAccountInItsPortfolio() throws {
        let doc = try convertBoth(ConversionOptions(splitAccounts: true))
        let trades = try RealSamples.rows("dsx-trades.csv")
        let transactions = try RealSamples.rows("dsx-transactions.csv").filter { $0[7] == "Complete" }
        var expected: [String: Set<String>] = [:]
        for r in trades { expected[r[11], default: []].insert("dsx-trades:" + r[12]) }
        for r in transactions { expected[r[1] == "Deposit" ? r[6] : r[5], default: []].insert("dsx-transactions:" + r[9]) }
        #expect(Set(doc.portfolios.map(\.name)) == Set(expected.keys))
        for p in doc.portfolios {
            #expect(Set(p.trades.map(\.id) + p.transactions.map(\.id)) == expected[p.name], "portfolio \(p.name)")
        }
        #expect(doc.allTrades.count == 35 && doc.allTransactions.count == 103)
    }
}
