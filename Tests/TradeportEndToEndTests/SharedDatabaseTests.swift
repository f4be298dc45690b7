import Foundation
import Testing
import TradeportBalances
import TradeportPush

/// Several `serve` instances over one database: what one stores, the other sees, and uniqueness
/// is the database's, not one process's.
@Suite("serve: two instances over one database")
struct SharedDatabaseTests {
    static let examples = ["formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv"]

    /// Trades enough to make two pushes race (six batches each).
    static func generatedTrades(count: Int, in directory: String) throws -> String {
        let lines = try String(contentsOfFile: CLI.repositoryRoot + "/" + examples[0], encoding: .utf8).split(separator: "\n")
        let fields = lines[0].split(separator: ";", omittingEmptySubsequences: false)
        var text = ""
        for i in 0..<count {
            var row = fields
            row[12] = Substring(String(50_000_000 + i))
            row[13] = Substring(String(90_000_000 + i))
            text += row.joined(separator: ";") + "\n"
        }
        let path = directory + "/many.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: Backend.available)
    func aPushSplitAcrossTwoInstancesStoresEachOperationOnce(backend: Backend) async throws {
        let first = try ServerProcess(backend: backend)
        defer { first.kill() }
        // The second instance: another port, the same data, no secret of its own in common but
        // the one both read (the environment's, as ServerProcess sets it).
        let second = try ServerProcess(directory: first.directory, backend: backend, database: first.database)
        defer { second.kill() }
        #expect(first.port != second.port)
        _ = try await first.register("alice")
        let dir = try CLI.temporaryDirectory()
        let many = try Self.generatedTrades(count: 6_000, in: dir)
        let inputs = Self.examples + [many, "--portfolio", "Main"]
        // The same push sent to both at once: both find the portfolio empty and send everything;
        // the database keeps one of each.
        let a = try Push.start(inputs, server: first, stderr: dir + "/a.log")
        let b = try Push.start(inputs, server: second, stderr: dir + "/b.log")
        a.waitUntilExit()
        b.waitUntilExit()
        let logs = [dir + "/a.log", dir + "/b.log"].map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }
        #expect(a.terminationStatus != 3 && b.terminationStatus != 3, "\(logs)")
        // A token from one instance is good at the other, and both read the same records.
        let alice = try await second.logIn("alice")
        let portfolios = try await alice.portfolios()
        #expect(portfolios.map(\.name) == ["Main"])
        let p = try #require(portfolios.first)
        let trades = try await alice.records(TradeRecord.self, portfolio: p.id)
        let transactions = try await alice.records(TransactionRecord.self, portfolio: p.id)
        await alice.shutdown()
        #expect(trades.count == 6_006, "\(logs)")
        #expect(Set(trades.compactMap(\.tradeValueId)).count == trades.count)
        #expect(Set(transactions.compactMap(\.transactionValueId)).count == transactions.count)
        // Sent by one and present for the other: the sums say each operation went once.
        let sent = logs.map { log in log.split(separator: "\n").first { $0.contains(" sent, ") }.map(String.init) ?? "" }
        #expect(sent.allSatisfy { $0.contains("0 failed") }, "\(sent)")
        // A re-run through either instance sends nothing.
        let again = try Push.run(inputs, server: first)
        #expect(again.status == 0 && again.stderr.contains(" 0 sent, \(trades.count + transactions.count) already present, 0 failed"), "\(again.stderr)")
    }
}
