import Foundation
import Testing
import TradeportBalances
import TradeportCore
import TradeportPush
import TradeportServe

#if canImport(Glibc)
import Glibc
#endif

/// The real exports in ../shared/samples (outside the repository): the tests that need them are
/// skipped when that folder is not there.
enum SharedSamples {
    static let directory = URL(fileURLWithPath: CLI.repositoryRoot).deletingLastPathComponent().appendingPathComponent("shared/samples").path
    static let trades = directory + "/dsx-trades.csv"
    static let transactions = directory + "/dsx-transactions.csv"
    static var available: Bool {
        FileManager.default.fileExists(atPath: trades) && FileManager.default.fileExists(atPath: transactions)
    }
}

/// What a server portfolio should hold: `convert`'s operations through the documented mapping.
struct ExpectedRecords: Equatable {
    var trades: [TradeRecord]
    var transactions: [TransactionRecord]

    init(_ portfolio: Portfolio) throws {
        trades = try portfolio.trades.map { try BalancesMapping.record($0).get() }
        transactions = try portfolio.transactions.compactMap { try BalancesMapping.record($0)?.get() }
    }

    init(trades: [TradeRecord], transactions: [TransactionRecord]) {
        self.trades = trades
        self.transactions = transactions
    }

    /// Order-free form: the server answers in its own order.
    var sorted: ExpectedRecords {
        ExpectedRecords(
            trades: trades.map(\.withoutId).sorted { ($0.tradeValueId ?? "") < ($1.tradeValueId ?? "") },
            transactions: transactions.map(\.withoutId).sorted { ($0.transactionValueId ?? "") < ($1.transactionValueId ?? "") })
    }

    /// Everything the server holds in the portfolio named `name`.
    static func held(in name: String, client: BalancesClient) async throws -> ExpectedRecords? {
        guard let p = try await client.portfolio(named: name) else { return nil }
        return ExpectedRecords(
            trades: try await client.records(TradeRecord.self, portfolio: p.id),
            transactions: try await client.records(TransactionRecord.self, portfolio: p.id))
    }
}

func writeJSON(_ object: Any, to path: String) throws {
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: path))
}

/// The first "N sent, M already present" of a push summary.
func sentAndPresent(_ summary: String) -> (sent: Int, present: Int)? {
    guard let range = summary.range(of: #"[0-9]+ sent, [0-9]+ already present"#, options: .regularExpression) else { return nil }
    let numbers = summary[range].split(separator: " ").compactMap { Int($0) }
    return (numbers[0], numbers[1])
}

/// A DSX trades export of `count` rows with ids from `firstId`, in three sub-accounts.
func syntheticTrades(_ count: Int, firstId: Int = 70_000_000) -> String {
    (0..<count).map { i in
        let second = i % 60
        let minute = i / 60 % 60
        let hour = i / 3600 % 24
        return
            "2020-01-0\(1 + i / 86_400) \(hour):\(minute < 10 ? "0" : "")\(minute):\(second < 10 ? "0" : "")\(second);btcusd;\(i % 2 == 0 ? "Buy" : "Sell");0,00\(i % 97 + 1);BTC;9771,9\(i % 10);USD;1,5;USD;0,0000\(i % 7 + 1);BTC;Trade;\(firstId + i);\(800_000_000 + i)"
    }.joined(separator: "\n")
}

@Suite("tradeport push and serve, end to end", .serialized)
struct PushServeTests {
    let examples = ["formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv"]

    @Test func retriesStopAtTheLastAttemptOrAtAnErrorNotRetried() async throws {
        struct Flaky: Error {}
        let policy = RetryPolicy(attempts: 3, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(2))
        var seen: [Int] = []
        do {
            _ = try await policy.run(
                { (n: Int) async throws -> Int in
                    seen.append(n)
                    throw Flaky()
                }, retrying: { $0 is Flaky })
            Issue.record("no error")
        } catch is Flaky {}
        #expect(seen == [1, 2, 3])
        seen = []
        do {
            _ = try await policy.run(
                { (n: Int) async throws -> Int in
                    seen.append(n)
                    throw CancellationError()
                }, retrying: { $0 is Flaky })
            Issue.record("no error")
        } catch is CancellationError {}
        #expect(seen == [1])
        let second = try await policy.run(
            { (n: Int) async throws -> Int in
                if n < 2 { throw Flaky() }
                return n
            }, retrying: { $0 is Flaky })
        #expect(second == 2)
    }

    @Test func whatAPortfolioLacksIsWhatItHoldsNoValueIdOf() throws {
        let a = try TradeRecord(json: JSONValue.parse(ServeAPITests.trade))
        var b = a
        var c = a
        var none = a
        b.tradeValueId = "b"
        c.tradeValueId = "c"
        none.tradeValueId = nil
        let lacking = MissingRecords([a, b, c, none], held: [a.tradeValueId, "c", nil, "c", "other"])
        #expect(lacking.missing == [b, none])
        #expect(lacking.present == 2 && lacking.heldTwice == 1)
    }

    @Test(.enabled(if: SharedSamples.available, "../shared/samples is not there"))
    func theRealSamplesSplitByAccountAndAnotherExportLoadOnceAndReadBackAsConverted() async throws {
        let server = try ServerProcess()
        defer { server.kill() }
        let dir = try CLI.temporaryDirectory()
        let split = try CLI.decode(try CLI.run(["convert", "--split-accounts", SharedSamples.trades, SharedSamples.transactions]).stdoutData)
        let other = try CLI.decode(try CLI.run(["convert", "--portfolio", "Examples"] + examples).stdoutData)
        #expect(split.portfolios.count >= 3)
        var entries: [[String: Any]] = split.portfolios.map {
            ["name": "DSX \($0.name)", "account": $0.name, "inputs": [SharedSamples.trades, SharedSamples.transactions]]
        }
        entries.append(["name": "Examples", "inputs": examples.map { ["path": CLI.repositoryRoot + "/" + $0] }])
        try writeJSON(["portfolios": entries], to: dir + "/manifest.json")

        let first = try Push.run(["--register", "--manifest", dir + "/manifest.json"], server: server)
        #expect(first.status == 0, "\(first.stderr)")
        let total = (split.portfolios + other.portfolios).reduce(0) { $0 + $1.trades.count + $1.transactions.count }
        #expect(first.stderr.contains("total: \(total) sent, 0 already present, 0 failed"), "\(first.stderr)")

        let client = try await server.logIn("alice")
        for p in split.portfolios {
            let held = try #require(try await ExpectedRecords.held(in: "DSX \(p.name)", client: client))
            #expect(held.sorted == (try ExpectedRecords(p)).sorted, "portfolio \(p.name)")
            // And field by field against convert's JSON, without the mapping's code.
            let trades = Dictionary(uniqueKeysWithValues: held.trades.map { ($0.tradeValueId ?? "", $0) })
            for t in p.trades {
                let r = try #require(trades[t.externalId ?? ""])
                #expect("\(r.dateTime.textWithSeconds)Z" == "\(t.time)")
                #expect(r.instrument == "\(t.base)-\(t.quote)".lowercased() && r.tradeType.rawValue.lowercased() == t.side.rawValue)
                #expect(r.tradedQuantity == t.quantity && r.tradedPrice == t.price && r.tradedQuantityCurrency == t.base.text.lowercased())
                #expect(t.fees.count == 1 && r.commission == t.fees[0].amount && r.commissionCurrency == t.fees[0].currency.text.lowercased())
            }
            let transactions = Dictionary(uniqueKeysWithValues: held.transactions.map { ($0.transactionValueId ?? "", $0) })
            for t in p.transactions {
                let r = try #require(transactions[t.externalId ?? ""])
                #expect("\(r.dateTime.textWithSeconds)Z" == "\(t.time)" && r.amount == t.amount && r.currency == t.asset.text.lowercased())
                #expect(r.transactionType == (t.type == .deposit ? .deposit : .withdraw) && r.commission == (t.fee?.amount ?? .zero))
            }
        }
        let examplesHeld = try #require(try await ExpectedRecords.held(in: "Examples", client: client))
        #expect(examplesHeld.sorted == (try ExpectedRecords(other.portfolios[0])).sorted)
        #expect(Set(try await client.portfolios().map(\.name)) == Set(entries.map { $0["name"] as! String }))

        let again = try Push.run(["--manifest", dir + "/manifest.json"], server: server)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("total: 0 sent, \(total) already present, 0 failed"), "\(again.stderr)")
        for p in split.portfolios {
            let held = try #require(try await ExpectedRecords.held(in: "DSX \(p.name)", client: client))
            #expect(held.trades.count == p.trades.count && held.transactions.count == p.transactions.count)
        }
        await client.shutdown()
    }

    @Test func pushingTheExamplesTwiceStoresThemOnceAndReadsBackExactly() async throws {
        let server = try ServerProcess()
        defer { server.kill() }
        let doc = try CLI.decode(try CLI.run(["convert", "--split-accounts"] + examples).stdoutData)
        let first = try Push.run(["--register", "--split-accounts"] + examples, server: server)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("total: 13 sent, 0 already present, 0 failed"), "\(first.stderr)")
        // The re-run with a token from a file, and no username or password around.
        let alice = try await server.logIn("alice")
        let dir = try CLI.temporaryDirectory()
        try ((alice.token ?? "") + "\n").write(toFile: dir + "/token", atomically: true, encoding: .utf8)
        let second = try CLI.run(
            ["push", "--server", server.base, "--token-file", dir + "/token", "--split-accounts"] + examples,
            environment: ["TRADEPORT_USERNAME": "", "TRADEPORT_PASSWORD": "", "TRADEPORT_TOKEN": ""])
        #expect(second.status == 0)
        #expect(second.stderr.contains("total: 0 sent, 13 already present, 0 failed"), "\(second.stderr)")

        let client = server.client().with(token: try await server.register("bob-reader"))
        for p in doc.portfolios {
            let held = try #require(try await ExpectedRecords.held(in: p.name, client: alice))
            #expect(held.sorted == (try ExpectedRecords(p)).sorted)
            // Another user sees none of it.
            #expect(try await client.portfolio(named: p.name) == nil)
        }
        await client.shutdown()
        await alice.shutdown()
    }

    /// A source long enough to be read in pieces (590 KB: two pieces of at most 512 KiB) has its
    /// records mapped and written on the reader's threads, DSX's by the compiled plan: the server
    /// then holds exactly what `convert` gives through the documented mapping, and a re-run sends
    /// nothing.
    @Test func aSourceReadInPiecesPushesItsRecordsAsConverted() async throws {
        let dir = try CLI.temporaryDirectory()
        try syntheticTrades(6_000).write(toFile: dir + "/trades.csv", atomically: true, encoding: .utf8)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dir + "/trades.csv")[.size] as? Int)
        #expect(size > 512 * 1024)
        let server = try ServerProcess(directory: dir)
        defer { server.kill() }
        let doc = try CLI.decode(try CLI.run(["convert", dir + "/trades.csv"]).stdoutData)
        let first = try Push.run(["--register", "--portfolio", "Big", dir + "/trades.csv"], server: server)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(sentAndPresent(first.stderr).map { $0 == (6000, 0) } == true, "\(first.stderr)")
        let again = try Push.run(["--portfolio", "Big", dir + "/trades.csv"], server: server)
        #expect(sentAndPresent(again.stderr).map { $0 == (0, 6000) } == true, "\(again.stderr)")
        let alice = try await server.logIn("alice")
        let converted = try #require(doc.portfolios.first)
        let held = try #require(try await ExpectedRecords.held(in: "Big", client: alice))
        #expect(held.trades.count == 6000)
        #expect(held.sorted == (try ExpectedRecords(converted)).sorted)
        await alice.shutdown()
    }

    @Test func aCanonicalDocumentPushesAsItsExports() async throws {
        let server = try ServerProcess()
        defer { server.kill() }
        let dir = try CLI.temporaryDirectory()
        #expect(try CLI.run(["convert", "--split-accounts", "-o", dir + "/ops.json"] + examples).status == 0)
        let fromDocument = try Push.run(["--register", dir + "/ops.json"], server: server)
        #expect(fromDocument.status == 0, "\(fromDocument.stderr)")
        #expect(fromDocument.stderr.contains("total: 13 sent"), "\(fromDocument.stderr)")
        let fromExports = try Push.run(["--split-accounts"] + examples, server: server)
        #expect(fromExports.stderr.contains("total: 0 sent, 13 already present"), "\(fromExports.stderr)")
    }

    @Test func againstTheOriginalsBehaviourPushStillLoadsExactlyOnce() async throws {
        let server = try ServerProcess(compat: true)
        defer { server.kill() }
        let first = try Push.run(["--register", "--split-accounts"] + examples, server: server)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("total: 13 sent, 0 already present, 0 failed"), "\(first.stderr)")
        #expect(try Push.run(["--split-accounts"] + examples, server: server).stderr.contains("total: 0 sent, 13 already present"))

        let alice = try await server.logIn("alice")
        let main = try #require(try await alice.portfolio(named: "Main"))
        let trades = try await alice.records(TradeRecord.self, portfolio: main.id)
        #expect(Set(trades.compactMap(\.tradeValueId)).count == trades.count)
        // The server really is the original's: no batch endpoint, and a repeated post is stored twice.
        #expect(try await alice.postBatch([trades[0]], portfolio: main.id) == nil)
        if case .created = try await alice.post(trades[0], portfolio: main.id) {} else { Issue.record("a duplicate post was not stored") }
        #expect(try await alice.records(TradeRecord.self, portfolio: main.id).count == trades.count + 1)
        await alice.shutdown()
    }

    /// Waits (up to a minute) until the proxy has stopped the push, at least `least` trades are
    /// stored in `portfolio`, and neither what is stored nor what the proxy has answered has changed
    /// for 300 ms: every answer the server gave has then reached the push. How many are stored; 0
    /// when the push ended first or the minute passed.
    private func settled(_ proxy: FreezingProxy, _ push: Process, _ client: BalancesClient, portfolio: String, least: Int) async throws -> Int {
        let deadline = Date().addingTimeInterval(60)
        var last: (stored: Int, answered: Int)?
        while Date() < deadline {
            try await Task.sleep(for: .milliseconds(300))
            guard proxy.frozen else {
                if !push.isRunning { return 0 }
                continue
            }
            guard let p = try? await client.portfolio(named: portfolio),
                let stored = try? await client.records(TradeRecord.self, portfolio: p.id).count, stored >= least
            else { continue }
            let now = (stored, proxy.bytesAnswered)
            if let last, last == now { return stored }
            last = now
        }
        return 0
    }

    /// The server stopped midway (SIGKILL), then restarted on the same database: the re-run
    /// sends exactly the rest. With the original's behaviour the client posts one by one.
    @Test(arguments: [false, true])
    func aPushInterruptedByTheServerStoppingResumesExactlyOnce(compat: Bool) async throws {
        let dir = try CLI.temporaryDirectory()
        let count = compat ? 600 : 3000
        try syntheticTrades(count).write(toFile: dir + "/trades.csv", atomically: true, encoding: .utf8)
        var server = try ServerProcess(directory: dir, compat: compat)
        let token = try await server.register("alice")
        // The push stopped when it begins its fifth post of trades (a batch, or one record with the
        // original's behaviour): the four before it were sent, at most one of them still in flight.
        let proxy = try FreezingProxy(for: server, freezingAtPost: 5, to: "trades")
        defer { proxy.stop() }
        let push = try Push.start(
            ["--batch-size", "25", "--concurrency", "2", "--attempts", "2", "--portfolio", "Big", dir + "/trades.csv"],
            server: server, base: proxy.base, stderr: dir + "/interrupted.txt")
        // Wait until part of it is there and answered, then stop the server.
        var client = server.client().with(token: token)
        // Two requests in flight at most (--concurrency 2): of the four posts before the fifth, the
        // one still in flight when the fifth began may have been cut by the freeze. Batches: the
        // first is the probe, so at least three of 25 are whole. The original's behaviour: the
        // probe is refused (404) and stores nothing, the three single posts after it at least two.
        let held = try await settled(proxy, push, client, portfolio: "Big", least: compat ? 2 : 75)
        server.kill()
        proxy.stop()
        push.waitUntilExit()
        await client.shutdown()
        #expect(held > 0)
        // The interrupted run says how far it got, and why it stopped.
        let interrupted = try String(contentsOfFile: dir + "/interrupted.txt", encoding: .utf8)
        #expect(push.terminationStatus == 3, "\(interrupted)")
        #expect(interrupted.contains("could not be reached") && interrupted.contains("stopped:"), "\(interrupted)")
        let before = try #require(sentAndPresent(interrupted), "\(interrupted)")
        #expect(before.sent > 0 && before.present == 0, "\(interrupted)")

        server = try ServerProcess(directory: dir, compat: compat)
        defer { server.kill() }
        let rerun = try Push.run(["--portfolio", "Big", dir + "/trades.csv"], server: server)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        // It was interrupted midway: the re-run found part and sent the rest.
        let counts = try #require(sentAndPresent(rerun.stderr))
        #expect(counts.sent > 0 && counts.present > 0 && counts.sent + counts.present == count, "\(rerun.stderr)")
        // What the stopped run saw acknowledged is there; what was in flight may be too.
        #expect(counts.present >= before.sent, "\(rerun.stderr)")
        client = server.client().with(token: token)
        let p = try #require(try await client.portfolio(named: "Big"))
        let stored = try await client.records(TradeRecord.self, portfolio: p.id)
        #expect(stored.count == count)
        #expect(Set(stored.compactMap(\.tradeValueId)).count == count)
        await client.shutdown()
    }

    @Test func aPushWhoseClientIsKilledResumesExactlyOnce() async throws {
        let dir = try CLI.temporaryDirectory()
        try syntheticTrades(3000).write(toFile: dir + "/trades.csv", atomically: true, encoding: .utf8)
        let server = try ServerProcess(directory: dir)
        defer { server.kill() }
        let token = try await server.register("alice")
        let proxy = try FreezingProxy(for: server, freezingAtPost: 5, to: "trades")
        defer { proxy.stop() }
        let push = try Push.start(
            ["--batch-size", "20", "--concurrency", "1", "--portfolio", "Big", dir + "/trades.csv"],
            server: server, base: proxy.base)
        let client = server.client().with(token: token)
        let held = try await settled(proxy, push, client, portfolio: "Big", least: 80)
        kill(push.processIdentifier, SIGKILL)
        push.waitUntilExit()
        #expect(held > 0)

        let rerun = try Push.run(["--portfolio", "Big", dir + "/trades.csv"], server: server)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let counts = try #require(sentAndPresent(rerun.stderr))
        #expect(counts.sent > 0 && counts.present > 0 && counts.sent + counts.present == 3000, "\(rerun.stderr)")
        let p = try #require(try await client.portfolio(named: "Big"))
        let stored = try await client.records(TradeRecord.self, portfolio: p.id)
        #expect(stored.count == 3000 && Set(stored.compactMap(\.tradeValueId)).count == 3000)
        await client.shutdown()
    }

    @Test func dryRunPrintsWhatWouldBeSentAndSendsNothing() async throws {
        let server = try ServerProcess()
        defer { server.kill() }
        _ = try await server.register("alice")
        let all = try CLI.run(["push", "--dry-run", "--split-accounts"] + examples)
        #expect(all.status == 0, "\(all.stderr)")
        let lines = all.stdout.split(separator: "\n")
        #expect(lines.count == 13)
        #expect(lines.first?.hasPrefix(#"{"portfolio":"Main","resource":"trades","record":{"dateTime":"#) == true)
        #expect(try Push.run(["--dry-run", "--split-accounts"] + examples, server: server).stdout.split(separator: "\n").count == 13)
        #expect(try Push.run(["--split-accounts", "--portfolio", "x", examples[0]], server: server).status == 0)
        let rest = try Push.run(["--dry-run", "--split-accounts"] + examples, server: server)
        #expect(rest.stdout.split(separator: "\n").count == 7, "\(rest.stdout)")
        let client = try await server.logIn("alice")
        #expect(try await client.portfolios().map(\.name).sorted() == ["Main", "Savings"])
        await client.shutdown()
    }

    @Test func anExpiredTokenIsRenewedWhenPushCanLogIn() async throws {
        let server = try ServerProcess()
        defer { server.kill() }
        _ = try await server.register("alice")
        let expired = try await TokenSigner(secret: Array(ServerProcess.secret.utf8)).token(for: "alice", now: Int64(Date().timeIntervalSince1970) - 7200)
        let renewed = try Push.run(["--split-accounts"] + examples, server: server, environment: ["TRADEPORT_TOKEN": expired])
        #expect(renewed.status == 0, "\(renewed.stderr)")
        #expect(renewed.stderr.contains("total: 13 sent"), "\(renewed.stderr)")
        let refused = try CLI.run(
            ["push", "--server", server.base, "--split-accounts"] + examples,
            environment: ["TRADEPORT_TOKEN": expired, "TRADEPORT_USERNAME": "", "TRADEPORT_PASSWORD": ""])
        #expect(refused.status == 3 && refused.stderr.contains("expired"), "\(refused.stderr)")
    }

    @Test func noCreateRefusesAMissingPortfolio() async throws {
        let server = try ServerProcess()
        defer { server.kill() }
        _ = try await server.register("alice")
        let r = try Push.run(["--no-create", "--portfolio", "Missing", examples[0]], server: server)
        #expect(r.status == 3)
        #expect(r.stderr.contains("no portfolio named 'Missing'"), "\(r.stderr)")
    }

    @Test func usageAndServerFailuresHaveTheirExitCodes() async throws {
        let noServer = try CLI.run(["push", examples[0]], environment: ["TRADEPORT_SERVER": ""])
        #expect(noServer.status == 2 && noServer.stderr.contains("no server"), "\(noServer.stderr)")
        let noFiles = try CLI.run(["push"])
        #expect(noFiles.status == 2)
        // The source options are convert's: the same names, checks and exit code.
        for command in ["push", "convert"] {
            let unnamed = try CLI.run([command, "--portfolio", "", examples[0]])
            #expect(unnamed.status == 2 && unnamed.stderr.contains("--portfolio needs a name"), "\(unnamed.stderr)")
            let help = try CLI.run([command, "--help"]).stdout
            #expect(["--format", "--portfolio", "--split-accounts", "--timezone"].allSatisfy(help.contains), "\(help)")
        }
        let unreachable = try CLI.run(
            ["push", "--server", "http://127.0.0.1:9/bcv", "--attempts", "2", examples[0]],
            environment: ["TRADEPORT_TOKEN": "x"])
        #expect(unreachable.status == 3 && unreachable.stderr.contains("could not be reached"), "\(unreachable.stderr)")
        // In plain words, naming the server: not NIO's "connection reset (error set): … (errno: 111)".
        #expect(unreachable.stderr.contains("cannot connect to http://127.0.0.1:9: connection refused"), "\(unreachable.stderr)")
        #expect(!unreachable.stderr.contains("errno") && !unreachable.stderr.contains("error set"), "\(unreachable.stderr)")
        // Logging in goes on while the inputs convert: an unreadable input is still exit 2 with its
        // own message, at once (not after the retries of a server that cannot be reached).
        let started = Date()
        let unreadable = try CLI.run(["push", "--server", "http://127.0.0.1:9/bcv", "no-such-export.csv"], environment: ["TRADEPORT_TOKEN": "x"])
        #expect(unreadable.status == 2 && unreadable.stderr.contains("no-such-export.csv") && !unreadable.stderr.contains("reached"), "\(unreadable.stderr)")
        #expect(Date().timeIntervalSince(started) < 5)
        let server = try ServerProcess()
        defer { server.kill() }
        // With --register it does not: an unreadable input leaves no account behind.
        let registering = try Push.run(["--register", "no-such-export.csv"], server: server, username: "newcomer", password: "pw-Kd20")
        #expect(registering.status == 2, "\(registering.stderr)")
        let afterwards = try Push.run([examples[0]], server: server, username: "newcomer", password: "pw-Kd20")
        #expect(afterwards.status == 3 && afterwards.stderr.contains("bad credentials"), "\(afterwards.stderr)")
        let badPassword = try Push.run([examples[0]], server: server, username: "nobody", password: "pw-Zq81")
        #expect(badPassword.status == 3 && badPassword.stderr.contains("bad credentials"), "\(badPassword.stderr)")
        #expect(!badPassword.stderr.contains("pw-Zq81"))
        let badToken = try CLI.run(["push", "--server", server.base, examples[0]], environment: ["TRADEPORT_TOKEN": "not-a-token"])
        #expect(badToken.status == 3 && badToken.stderr.contains("401"), "\(badToken.stderr)")
    }

    /// Records are sent while the inputs are read: an input that fails part-way (a canonical
    /// document cut short) stops the push with exit 2 after some batches went, says how many, and
    /// the re-run of the mended input sends exactly the rest.
    @Test func anInputFailingPartWayStopsThePushAndTheRerunSendsTheRest() async throws {
        let dir = try CLI.temporaryDirectory()
        try syntheticTrades(3000).write(toFile: dir + "/trades.csv", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["convert", "--format", "dsx-trades", "--portfolio", "Big", "-o", dir + "/ops.json", dir + "/trades.csv"]).status == 0)
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/ops.json"))
        // About two thirds of the document: some 2,000 operations, then the text ends inside one.
        try whole.prefix(whole.count * 2 / 3).write(to: URL(fileURLWithPath: dir + "/cut.json"))
        let server = try ServerProcess(directory: dir)
        defer { server.kill() }
        let token = try await server.register("alice")

        let cut = try Push.run(["--batch-size", "100", dir + "/cut.json"], server: server)
        #expect(cut.status == 2, "\(cut.stderr)")
        #expect(cut.stderr.contains("cannot read") && cut.stderr.contains("cut.json: line"), "\(cut.stderr)")
        let before = try #require(sentAndPresent(cut.stderr), "\(cut.stderr)")
        #expect(before.sent >= 1000 && before.present == 0, "\(cut.stderr)")
        #expect(cut.stderr.contains("the \(before.sent) operations sent before it stay on the server"), "\(cut.stderr)")
        let client = server.client().with(token: token)
        let p = try #require(try await client.portfolio(named: "Big"))
        #expect(try await client.records(TradeRecord.self, portfolio: p.id).count == before.sent)

        let rerun = try Push.run(["--batch-size", "100", dir + "/ops.json"], server: server)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.contains("\(3000 - before.sent) sent, \(before.sent) already present, 0 failed"), "\(rerun.stderr)")
        let stored = try await client.records(TradeRecord.self, portfolio: p.id)
        #expect(stored.count == 3000 && Set(stored.compactMap(\.tradeValueId)).count == 3000)
        // A canonical document keeps its portfolios: no empty --portfolio ("main") beside them.
        #expect(try await client.portfolios().map(\.name) == ["Big"])
        await client.shutdown()
    }

    @Test func aManifestNamesPortfoliosBySubAccountAndReportsTheRest() async throws {
        let server = try ServerProcess()
        defer { server.kill() }
        let dir = try CLI.temporaryDirectory()
        for name in ["dsx-trades-example.csv", "dsx-transactions-example.csv"] {
            try FileManager.default.copyItem(atPath: CLI.repositoryRoot + "/formats/samples/" + name, toPath: dir + "/" + name)
        }
        try writeJSON(
            [
                "portfolios": [
                    [
                        "name": "Only Main", "account": "Main",
                        "inputs": ["dsx-trades-example.csv", ["path": "dsx-transactions-example.csv", "format": "dsx-transactions"]]
                    ],
                    ["name": "Everything", "inputs": ["dsx-trades-example.csv", "dsx-transactions-example.csv"], "timezone": "UTC"]
                ]
            ], to: dir + "/manifest.json")
        let r = try Push.run(["--register", "--manifest", "manifest.json"], server: server, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Only Main   9 sent"), "\(r.stderr)")
        #expect(r.stderr.contains("Everything  13 sent"), "\(r.stderr)")
        #expect(
            r.stderr.contains("not pushed: sub-account 'Savings'") && r.stderr.contains("(2 trades, 2 transactions) is in no portfolio of the manifest"),
            "\(r.stderr)")

        try #"{"portfolios": [{"name": "x", "inputs": [{"format": "dsx-trades"}]}]}"#.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let bad = try Push.run(["--manifest", "bad.json"], server: server, in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("portfolios[0].inputs[0]"), "\(bad.stderr)")
    }
}
