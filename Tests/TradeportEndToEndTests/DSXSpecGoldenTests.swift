import Crypto
import Foundation
import Testing

/// The DSX formats are specs (`formats/dsx-*.yaml`). Before the DSX code readers were removed,
/// their output was recorded: these documents, byte for byte, are what the code readers wrote
/// (`expected/examples.json` since the core issue; `expected/corrupted-trades.json` and the digest
/// of the real exports' document at `c1d769e`). The specs must keep writing exactly them.
@Suite("DSX specs reproduce the DSX code readers' documents")
struct DSXSpecGoldenTests {
    /// SHA-256 of `tradeport convert ../shared/samples/dsx-trades.csv ../shared/samples/dsx-transactions.csv`
    /// as the DSX code readers wrote it (35 trades, 103 transactions, 14 skipped), but for one
    /// warning: 58,277 bytes since the operations of one instant are one step of the balance check
    /// (the BSV withdrawal and deposit of 2019-10-09 07:04:07, rows 25–26 of the transactions, no
    /// longer warn that BSV went below zero between them; 58,546 bytes before).
    static let realExportsDigest = "6682719cbf013674ab374eb91ee73882e27038206ca92a13d6f61deef9924ad9"

    @Test func theCorruptedExportGivesTheRecordedDocument() throws {
        let r = try CLI.run(["convert", "Tests/TradeportEndToEndTests/Fixtures/corrupted-trades.csv"])
        #expect(r.status == 1)
        let expected = try String(contentsOfFile: CLI.fixtures + "/expected/corrupted-trades.json", encoding: .utf8)
        #expect(r.stdout == expected)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: CLI.repositoryRoot + "/../shared/samples/dsx-trades.csv")))
    func theRealExportsGiveTheRecordedDocument() throws {
        let r = try CLI.run(["convert", "../shared/samples/dsx-trades.csv", "../shared/samples/dsx-transactions.csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let digest = SHA256.hash(data: r.stdoutData).map { String(format: "%02x", $0) }.joined()
        #expect(r.stdoutData.count == 58_277)
        #expect(digest == Self.realExportsDigest)
    }
}
