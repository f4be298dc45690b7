import Foundation
import Testing
import TradeportTestKit

/// The samples of each broker's family of exports (formats/samples/: DEGIRO's account statement in
/// seven languages and its Transactions export in two generations; Schwab's two layouts; Coinbase's
/// four generations and Coinbase Pro's fills report; Trade Republic, Scalable Capital and
/// Bitvavo; Trading 212's seven generations, eToro's and XTB's older and newer layouts; IBKR's
/// Activity Statement; Avanza, Nordnet, Saxo, Swissquote, flatex, Questrade, interactive investor, BUX,
/// tastytrade, Fidelity and Vanguard), each converted and compared with the
/// operations a script works out from the sample's raw rows by the broker's own semantics, not
/// from the specs (Fixtures/families/).
@Suite(.enabled(if: (try? CLI.shell("python3", ["--version"]))?.status == 0, "python3 is not installed"))
struct FamilySampleTests {
    static let fixtures = CLI.repositoryRoot + "/Tests/TradeportEndToEndTests/Fixtures/families"

    /// The samples compare.py checks, with the expected operations of Fixtures/families/<broker>_expected.py.
    static let samples = [
        "degiro-en-example.csv", "degiro-pt-example.csv", "degiro-es-example.csv", "degiro-it-example.csv", "degiro-de-example.csv",
        "degiro-fr-example.csv", "degiro-transactions-example.csv", "degiro-transactions-2023-example.csv",
        "degiro-transactions-nl-example.csv", "traderepublic-example.csv", "scalable-example.csv", "bitvavo-example.csv",
        "bitvavo-2023-example.csv", "trading212-2020-example.csv", "trading212-2021-example.csv", "trading212-2022-example.csv",
        "trading212-2023-example.csv", "trading212-2024-example.csv", "trading212-2025-example.csv", "trading212-2026-example.csv",
        "etoro-2019-example.csv", "etoro-2021-example.csv", "xtb-2021-de-example.csv", "xtb-2025-example.csv", "bitpanda-example.csv",
        "bitpanda-2021-example.csv", "bitpanda-2022-example.csv", "freetrade-example.csv", "ibkr-cash-example.csv",
        "ibkr-cash-2025-example.csv", "ibkr-confirms-example.csv", "revolut-crypto-example.csv", "revolut-crypto-2024-example.csv",
        "binance-2020-example.csv", "binance-2025-example.csv", "ibkr-activity-example.csv", "ibkr-activity-2019-example.csv",
        "avanza-example.csv", "avanza-2023-example.csv", "nordnet-fi-example.csv", "nordnet-no-example.csv", "saxo-example.csv",
        "saxo-2026-example.csv", "swissquote-example.csv", "swissquote-2021-de-example.csv", "swissquote-2025-de-example.csv",
        "flatex-depot-example.csv", "flatex-depot-at-2021-example.csv", "flatex-cash-example.csv", "questrade-example.xlsx",
        "questrade-executions-example.csv", "ii-example.csv", "ii-2019-example.csv", "bux-example.csv", "bux-2024-example.csv",
        "tastytrade-example.csv", "tastytrade-2024-example.csv", "tastyworks-example.csv", "fidelity-example.csv",
        "fidelity-2019-example.csv", "fidelity-2023-example.csv", "fidelity-2025-example.csv", "fidelity-2026-example.csv",
        "vanguard-example.csv", "vanguard-2019-example.csv", "vanguard-2023-example.csv", "kraken-ledger-2021-example.csv",
        "kraken-ledger-2024-example.csv", "kraken-trades-2019-example.csv", "kraken-trades-2022-example.csv", "cryptocom-2021-example.csv",
        "cryptocom-2025-example.csv"
    ]

    @Test("each layout of each family reads as its rows say", arguments: samples)
    func family(_ sample: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out.json"
        _ = try CLI.run(["convert", "formats/samples/" + sample, "-o", out, "-q"])
        let r = try CLI.shell("python3", [Self.fixtures + "/compare.py", sample + "=" + out])
        #expect(r.status == 0, "\(sample): \(r.output)")
    }

    static let otherSamples: [(kind: String, sample: String)] = [
        ("schwab", "schwab-2020-example.csv"), ("coinbase", "coinbase-2020-example.csv"), ("coinbase", "coinbase-2021-example.csv"),
        ("coinbase", "coinbase-2023-example.csv"), ("coinbase", "coinbase-2025-example.csv"), ("fills", "coinbasepro-fills-example.csv")
    ]

    @Test("Schwab and Coinbase: each layout reads as its rows say", arguments: otherSamples.indices)
    func schwabAndCoinbase(_ index: Int) throws {
        let (kind, sample) = Self.otherSamples[index]
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out.json"
        let converted = try CLI.run(["convert", "formats/samples/" + sample, "-o", out, "-q"])
        #expect(converted.status == 0 || converted.status == 1, "\(converted.stderr)")
        let r = try CLI.shell(
            "python3", [Self.fixtures + "/schwab_coinbase_expected.py", kind, CLI.repositoryRoot + "/formats/samples/" + sample, out])
        #expect(r.status == 0, "\(r.output)")
    }

    @Test("every sample in formats/samples is detected as the format it was written for")
    func samplesAreDetected() throws {
        for name in CLI.entries(CLI.repositoryRoot + "/formats/samples") {
            let r = try CLI.run(["detect", "formats/samples/" + name])
            let id = name.replacingOccurrences(of: #"(-\d{4})?(-[a-z]{2})?-example\.(csv|xlsx)$"#, with: "", options: .regularExpression)
            #expect(r.stdout.hasSuffix(": " + id + "\n"), "\(name): \(r.stdout)\(r.stderr)")
        }
    }
}
