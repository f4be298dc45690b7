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
    /// as the DSX code readers wrote it (58,546 bytes: 35 trades, 103 transactions, 14 skipped).
    static let realExportsDigest = "215fb59611c45538c5d09f7e31c5f24b29575f627bf75660afddc4bc315f504d"

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
        #expect(r.stdoutData.count == 58_546)
        #expect(digest == Self.realExportsDigest)
    }
}
