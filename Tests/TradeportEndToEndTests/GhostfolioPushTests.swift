import Foundation
import Testing
import TradeportCore

/// `tradeport push --to ghostfolio` against `GhostfolioStandIn` (Ghostfolio itself cannot run
/// here): a first push, a re-run that sends nothing, a dry run that writes nothing, Ghostfolio's
/// batch limit, and the real T-Bank and DEGIRO exports with a symbol map.
@Suite("push --to ghostfolio, against a stand-in", .serialized)
struct GhostfolioPushTests {
    static let token = "security-token-of-alice"
    static let examples = ["formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv", "formats/samples/degiro-example.csv"]
    static let tbank = "../shared/realworld/tinkoff/tbank-2024-full-year.xlsx"
    static let degiro = "../shared/realworld/brokers/degiro-export.csv"
    static var realFilesPresent: Bool { FileManager.default.fileExists(atPath: CLI.repositoryRoot + "/" + tbank) }

    /// What Yahoo knows in these tests: the symbols the map below names.
    static let yahoo: [GhostfolioStandIn.Profile] = [
        .init(symbol: "MTSS.ME", currency: "RUB", name: "Mobile TeleSystems"),
        .init(symbol: "LKOH.ME", currency: "RUB", name: "Lukoil"),
        .init(symbol: "ROSN.ME", currency: "RUB", name: "Rosneft"),
        .init(symbol: "MSFT", currency: "USD", name: "Microsoft Corporation", isin: "US5949181045"),
        .init(symbol: "AAPL", currency: "USD", name: "Apple Inc.", isin: "US0378331005"),
        .init(symbol: "IWDA.AS", currency: "EUR", name: "iShares Core MSCI World", isin: "IE00B4L5Y983")
    ]

    /// A user's map: shares by code and by ISIN, a bond as a custom profile of the user's naming.
    static let symbols = """
        isin,code,venue,target,symbol,data_source,name
        ,MTSS,,,MTSS.ME,YAHOO,
        RU0009024277,,,,LKOH.ME,YAHOO,
        ,ROSN,,ghostfolio,ROSN.ME,YAHOO,
        ,MSFT,,,MSFT,YAHOO,
        US0378331005,,,,AAPL,YAHOO,
        IE00B4L5Y983,,,,IWDA.AS,YAHOO,
        RU000A1006C3,,,ghostfolio,GF_RU000A1006C3,MANUAL,Bond RU000A1006C3
        """

    func push(_ arguments: [String], _ standIn: GhostfolioStandIn, in directory: String = CLI.repositoryRoot) throws -> CLI.Result {
        try CLI.run(
            ["push", "--to", "ghostfolio", "--server", standIn.base] + arguments, in: directory,
            environment: ["GHOSTFOLIO_TOKEN": Self.token])
    }

    /// `N sent, M already present` of the summary's line for `portfolio`.
    func counts(_ stderr: String, _ portfolio: String = "main") -> (sent: Int, present: Int)? {
        for line in stderr.split(separator: "\n") where line.hasPrefix("  \(portfolio)  ") {
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if numbers.count >= 2 { return (numbers[numbers.count - 2], numbers[numbers.count - 1]) }
        }
        return nil
    }

    /// The activities `convert --to ghostfolio` writes for `inputs`.
    func written(_ inputs: [String], _ extra: [String] = []) throws -> [[String: Any]] {
        let path = try CLI.temporaryDirectory() + "/body.json"
        let r = try CLI.run(["convert"] + inputs + ["--to", "ghostfolio", "-o", path, "-q"] + extra)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let body = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return body?["activities"] as? [[String: Any]] ?? []
    }

    @Test func aFirstPushStoresEveryActivityAndAReRunSendsNothing() throws {
        let standIn = try GhostfolioStandIn(securityToken: Self.token)
        defer { standIn.stop() }
        let expected = try written(Self.examples)
        let first = try push(Self.examples, standIn)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(counts(first.stderr)?.sent == expected.count, "\(first.stderr)")
        #expect(standIn.activities.count == expected.count)
        // Each exactly once, in the account of the portfolio's name, with tradeport's id.
        #expect(Set(standIn.activities.compactMap(\.comment)).count == expected.count)
        let account = try #require(standIn.accounts.first { $0.name == "main" })
        #expect(standIn.activities.allSatisfy { $0.accountId == account.id })
        // Every batch went to the dry run first.
        #expect(standIn.importCalls.map(\.dryRun) == [true, false])

        let calls = standIn.importCalls.count
        let again = try push(Self.examples, standIn)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(counts(again.stderr).map { [$0.sent, $0.present] } == [0, expected.count], "\(again.stderr)")
        #expect(standIn.importCalls.count == calls, "what the instance holds is not sent again, not even to the dry run")
        #expect(standIn.activities.count == expected.count)
        #expect(standIn.accounts.filter { $0.name == "main" }.count == 1)
    }

    @Test func aFileImportedByHandIsRecognisedAndNothingIsDoubled() throws {
        // `--to ghostfolio`'s body, imported as a user would (dry run, then import): its fees,
        // taxes and interest keep their symbols, so Ghostfolio's own duplicate check holds.
        let standIn = try GhostfolioStandIn(securityToken: Self.token)
        defer { standIn.stop() }
        let path = try CLI.temporaryDirectory() + "/body.json"
        #expect(try CLI.run(["convert"] + Self.examples + ["--to", "ghostfolio", "-o", path, "-q"]).status == 0)
        let body = try Data(contentsOf: URL(fileURLWithPath: path))
        let jwt = try standIn.logIn(Self.token)
        #expect(try standIn.post("/api/v1/import", body: body, bearer: jwt).status == 201)
        let stored = standIn.activities.count
        #expect(stored == (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["activities"].map { ($0 as? [Any])?.count ?? -1 })
        // The same file again: every activity a duplicate by Ghostfolio's rule.
        let dry = try standIn.post("/api/v1/import?dryRun=true", body: body, bearer: jwt)
        let flagged = (try JSONSerialization.jsonObject(with: dry.body) as? [String: Any])?["activities"] as? [[String: Any]] ?? []
        #expect(flagged.count == stored && flagged.allSatisfy { ($0["error"] as? [String: Any])?["code"] as? String == "IS_DUPLICATE" })
        #expect(try standIn.post("/api/v1/import", body: body, bearer: jwt).status == 201)
        #expect(standIn.activities.count == stored)
        // And the push finds them all there.
        let r = try push(Self.examples, standIn)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(counts(r.stderr).map { [$0.sent, $0.present] } == [0, stored], "\(r.stderr)")
        #expect(standIn.activities.count == stored)
    }

    @Test func anImportCutOffFromItsAnswerIsNotSentAgain() throws {
        // A 502 after the activities were created: resending would create them twice, since
        // Ghostfolio does not compare what one request brings with what another is creating.
        let standIn = try GhostfolioStandIn(securityToken: Self.token)
        defer { standIn.stop() }
        let expected = try written(Self.examples)
        standIn.failNextImportsAfterStoring(1)
        let r = try push(Self.examples, standIn)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(counts(r.stderr)?.sent == expected.count, "\(r.stderr)")
        #expect(standIn.activities.count == expected.count)
        #expect(Set(standIn.activities.compactMap(\.comment)).count == expected.count)
        #expect(standIn.importCalls.filter { !$0.dryRun }.map(\.status) == [502], "the import was not sent again")
    }

    @Test func aDryRunAsksGhostfolioAndWritesNothing() throws {
        let standIn = try GhostfolioStandIn(securityToken: Self.token)
        defer { standIn.stop() }
        let expected = try written(Self.examples)
        let r = try push(Self.examples + ["--dry-run"], standIn)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("dry run against Ghostfolio at \(standIn.base) (nothing written):"), "\(r.stderr)")
        #expect(counts(r.stderr)?.sent == expected.count, "\(r.stderr)")
        #expect(standIn.activities.isEmpty && standIn.accounts.isEmpty)
        #expect(!standIn.importCalls.isEmpty && standIn.importCalls.allSatisfy { $0.dryRun })
    }

    @Test func batchesShrinkToTheInstancesLimit() throws {
        let standIn = try GhostfolioStandIn(securityToken: Self.token, maxActivities: 4)
        defer { standIn.stop() }
        let expected = try written(Self.examples)
        let r = try push(Self.examples, standIn)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(standIn.activities.count == expected.count)
        #expect(standIn.importCalls.filter { $0.status == 201 }.allSatisfy { $0.count <= 4 })
        #expect(standIn.importCalls.contains { $0.status == 400 }, "the first batch of 100 taught the limit")
    }

    @Test func aWrongTokenAndAnUnknownSymbolAreRefusalsNamed() throws {
        let standIn = try GhostfolioStandIn(securityToken: Self.token)
        defer { standIn.stop() }
        let wrong = try CLI.run(
            ["push", "--to", "ghostfolio", "--server", standIn.base] + Self.examples, environment: ["GHOSTFOLIO_TOKEN": "not-it"])
        #expect(wrong.status == 3 && wrong.stderr.contains("the security token was not accepted"), "\(wrong.stderr)")
        // Securities under YAHOO by their code, which this Yahoo does not know: the dry run
        // refuses the batch, and nothing is written.
        let yahoo = try push(Self.examples + ["--data-source", "YAHOO"], standIn)
        #expect(yahoo.status == 3, "\(yahoo.stderr)")
        #expect(yahoo.stderr.contains(#"is not valid for the specified data source ("YAHOO")"#), "\(yahoo.stderr)")
        #expect(standIn.activities.isEmpty)
        #expect(standIn.importCalls.allSatisfy { $0.dryRun })
    }

    @Test func aWatchedFolderFeedsGhostfolioOnceAndARefusedTokenStopsIt() throws {
        let standIn = try GhostfolioStandIn(securityToken: Self.token)
        defer { standIn.stop() }
        let dir = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/in/Broker", withIntermediateDirectories: true)
        for input in Self.examples {
            try FileManager.default.copyItem(atPath: CLI.repositoryRoot + "/" + input, toPath: dir + "/in/Broker/" + (input as NSString).lastPathComponent)
        }
        let expected = try written(Self.examples)
        let watch = ["--watch", dir + "/in", "--once", "--settle", "0", "--interval", "0.1"]
        let first = try push(watch, standIn, in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(standIn.activities.count == expected.count)
        #expect(standIn.accounts.map(\.name) == ["Broker"])
        let state = try String(contentsOfFile: dir + "/in/.tradeport/state.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(state.count == 3 && state.allSatisfy { $0.contains(#""status":"loaded""#) }, "\(state)")
        // What Ghostfolio cannot hold is said in the file's record.
        #expect(state.contains { $0.contains("not carried: ") && $0.contains("deposits (Ghostfolio keeps cash as the account's balance)") }, "\(state)")
        let calls = standIn.importCalls.count
        // A new copy of a file already loaded, under another name: nothing new goes.
        try FileManager.default.copyItem(atPath: dir + "/in/Broker/degiro-example.csv", toPath: dir + "/in/Broker/degiro-again.csv")
        let second = try push(watch, standIn, in: dir)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(standIn.importCalls.count == calls && standIn.activities.count == expected.count)
        // A token the instance refuses stops the watcher (exit 3) instead of failing each file.
        try FileManager.default.copyItem(atPath: dir + "/in/Broker/degiro-example.csv", toPath: dir + "/in/Broker/degiro-third.csv")
        let refused = try CLI.run(
            ["push", "--to", "ghostfolio", "--server", standIn.base] + watch, in: dir, environment: ["GHOSTFOLIO_TOKEN": "not-it"])
        #expect(refused.status == 3 && refused.stderr.contains("the security token was not accepted"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: dir + "/in/.tradeport/state.jsonl", encoding: .utf8).split(separator: "\n").count == 4)
    }

    @Test(.enabled(if: realFilesPresent, "../shared/realworld is not there"))
    func theRealTBankAndDEGIROExportsWithASymbolMap() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.symbols.write(toFile: dir + "/symbols.csv", atomically: true, encoding: .utf8)
        let standIn = try GhostfolioStandIn(securityToken: Self.token, yahoo: Self.yahoo)
        defer { standIn.stop() }
        let inputs = [CLI.repositoryRoot + "/" + Self.tbank, CLI.repositoryRoot + "/" + Self.degiro]
        let canonical = dir + "/ops.json"
        #expect(try CLI.run(["convert"] + inputs + ["-o", canonical, "-q"]).status == 0)

        let r = try push(inputs + ["--symbols", dir + "/symbols.csv"], standIn, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(standIn.importCalls.filter { !$0.dryRun }.reduce(0) { $0 + $1.count } == standIn.activities.count)
        // Mapped securities under their YAHOO symbols, the bond under the user's custom profile.
        let bySymbol = Dictionary(grouping: standIn.activities, by: \.symbol)
        for symbol in ["MTSS.ME", "LKOH.ME", "ROSN.ME", "MSFT", "AAPL", "IWDA.AS"] {
            #expect(bySymbol[symbol]?.allSatisfy { $0.dataSource == "YAHOO" } == true, "\(symbol)")
        }
        #expect(bySymbol["GF_RU000A1006C3"]?.count == 20)
        #expect(standIn.profiles.contains { $0.symbol == "GF_RU000A1006C3" && $0.name == "Bond RU000A1006C3" })
        // The rest are listed by name and count.
        #expect(r.stderr.contains("ghostfolio: "), "\(r.stderr)")
        let unmapped = try #require(r.stderr.split(separator: "\n").first { $0.contains("no symbol in the map") })
        #expect(unmapped.contains("RU000A105P07 ×16") && unmapped.contains("SBERP (RU0009029557) ×7"), "\(unmapped)")
        #expect(!unmapped.contains("MTSS") && !unmapped.contains("IE00B4L5Y983") && !unmapped.contains("RU000A1006C3"), "\(unmapped)")

        // Nothing lost: every operation of the canonical reading is stored (its id in a comment),
        // or is of a kind Ghostfolio cannot hold.
        let stored = Set(standIn.activities.compactMap(\.comment))
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: canonical))) as? [String: Any]
        var missing: [String] = []
        for portfolio in document?["portfolios"] as? [[String: Any]] ?? [] {
            for trade in portfolio["trades"] as? [[String: Any]] ?? [] {
                let base = trade["base"] as? String ?? ""
                if !stored.contains("tradeport \(trade["id"] as? String ?? "")") && !["USD", "EUR", "RUB"].contains(base) {
                    missing.append("trade \(trade["id"]!)")
                }
            }
            for t in portfolio["transactions"] as? [[String: Any]] ?? [] {
                let type = t["type"] as? String ?? ""
                let notCarried =
                    ["deposit", "withdrawal", "tax-refund", "fee-refund", "redemption"].contains(type) || (t["status"] as? String ?? "complete") != "complete"
                if !stored.contains("tradeport \(t["id"] as? String ?? "")") && !notCarried { missing.append("\(type) \(t["id"]!)") }
            }
        }
        #expect(missing.isEmpty, "\(missing.prefix(10))")

        let calls = standIn.importCalls.count
        let again = try push(inputs + ["--symbols", dir + "/symbols.csv"], standIn, in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(standIn.importCalls.count == calls)
        #expect(Set(standIn.activities.compactMap(\.comment)).count == standIn.activities.count)
    }
}

/// Calls on the stand-in as a user's `curl` makes them (the import of a file by hand).
extension GhostfolioStandIn {
    struct Answer {
        var status: Int
        var body: Data
    }

    /// `POST path` with `body` as JSON, with the JWT when given.
    func post(_ path: String, body: Data, bearer: String? = nil) throws -> Answer {
        let dir = try CLI.temporaryDirectory()
        try body.write(to: URL(fileURLWithPath: dir + "/request.json"))
        let r = try CLI.shell(
            "curl",
            [
                "-s", "-o", dir + "/answer.json", "-w", "%{http_code}", "-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
                "@" + dir + "/request.json"
            ]
                + (bearer.map { ["-H", "Authorization: Bearer " + $0] } ?? []) + [base + path])
        let answer = (try? Data(contentsOf: URL(fileURLWithPath: dir + "/answer.json"))) ?? Data()
        return Answer(status: Int(r.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1, body: answer)
    }

    /// The JWT a security token gets.
    func logIn(_ token: String) throws -> String {
        let answer = try post("/api/v1/auth/anonymous", body: Data(#"{"accessToken": "\#(token)"}"#.utf8))
        let json = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return try #require(json?["authToken"] as? String)
    }
}
