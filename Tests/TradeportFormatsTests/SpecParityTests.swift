import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportSpec
import TradeportTestKit

/// The DSX formats as specs must read every file exactly as the DSX code adapters do: the same
/// operations, skips and rejects, messages included.
@Suite("Format specs: the DSX specs reproduce the DSX adapters")
struct SpecParityTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func specAdapter(_ id: String) throws -> SpecAdapter {
        let path = repository + "/formats/\(id).yaml"
        return SpecAdapter(try SpecLoader.load(text: try String(contentsOfFile: path, encoding: .utf8), file: path))
    }

    static func compare(_ paths: [String], _ code: any FormatAdapter, _ id: String) throws {
        let spec = try specAdapter(id)
        let a = try TestKit.convert(paths: paths, with: code)
        let b = try TestKit.convert(paths: paths, with: spec)
        #expect(a.allTrades == b.allTrades, "trades of \(paths)")
        #expect(a.allTransactions == b.allTransactions, "transactions of \(paths)")
        #expect(a.skipped.map(\.reason) == b.skipped.map(\.reason))
        #expect(a.rejected.map(\.source.row) == b.rejected.map(\.source.row))
        for (x, y) in zip(a.rejected, b.rejected) {
            #expect(x.errors.map { "\($0.column ?? 0) \($0.field ?? "") \($0.message)" } == y.errors.map { "\($0.column ?? 0) \($0.field ?? "") \($0.message)" }, "row \(x.source.row)")
        }
        #expect(a.sources.map(\.rows) == b.sources.map(\.rows))
    }

    @Test("the shipped examples and the corrupted fixture")
    func examples() throws {
        try Self.compare([Self.repository + "/formats/samples/dsx-trades-example.csv"], DSXTradesAdapter(), "dsx-trades")
        try Self.compare([Self.repository + "/formats/samples/dsx-transactions-example.csv"], DSXTransactionsAdapter(), "dsx-transactions")
        try Self.compare([Self.repository + "/Tests/TradeportEndToEndTests/Fixtures/corrupted-trades.csv"], DSXTradesAdapter(), "dsx-trades")
    }

    @Test("the real exports", .enabled(if: FileManager.default.fileExists(atPath: repository + "/../shared/samples/dsx-trades.csv")))
    func realSamples() throws {
        try Self.compare([Self.repository + "/../shared/samples/dsx-trades.csv"], DSXTradesAdapter(), "dsx-trades")
        try Self.compare([Self.repository + "/../shared/samples/dsx-transactions.csv"], DSXTransactionsAdapter(), "dsx-transactions")
    }

    @Test("detection claims what the code adapters claim")
    func detection() throws {
        for (id, file) in [("dsx-trades", "dsx-trades-example.csv"), ("dsx-transactions", "dsx-transactions-example.csv")] {
            let input = try SourceInput(path: Self.repository + "/formats/samples/" + file)
            #expect(try Self.specAdapter(id).detect(input.probe) == .match)
        }
        let other = try SourceInput(path: Self.repository + "/formats/samples/dsx-transactions-example.csv")
        #expect(try Self.specAdapter("dsx-trades").detect(other.probe) != .match)
    }
}
