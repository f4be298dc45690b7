import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TradeportBalances
import TradeportCore
import TradeportPush

@testable import TradeportServe

/// `tradeport serve`'s API called directly, as the balances apps and other clients would.
@Suite("tradeport serve's API, end to end", .serialized)
struct ServeAPITests {
    static let trade = #"""
        {"dateTime": "2019-11-25T08:08:44", "instrument": "eos-btc", "tradeType": "Buy", "tradedQuantity": 1,
         "tradedQuantityCurrency": "eos", "tradedPrice": 0.0003597, "tradedPriceCurrency": "btc",
         "commission": 0.0025, "commissionCurrency": "eos", "tradeValueId": "37605094"}
        """#
    static let transaction = #"""
        {"dateTime": "2019-11-27T15:29:00", "transactionType": "Deposit", "currency": "btc", "amount": 0.00028643,
         "commission": 0, "transactionStatus": "Complete", "transactionValueId": "3765477"}
        """#

    /// A portfolio of `owner`'s with one trade and one transaction.
    private func seed(_ owner: BalancesClient, name: String = "Mine") async throws -> (portfolio: Int64, trade: Int64, transaction: Int64) {
        let p = try await owner.createPortfolio(named: name)
        let t = try await owner.call(.POST, "/trades", query: [("portfolioId", "\(p.id)")], body: Array(Self.trade.utf8))
        let x = try await owner.call(.POST, "/transactions", query: [("portfolioId", "\(p.id)")], body: Array(Self.transaction.utf8))
        #expect(t.status == 200 && x.status == 200)
        guard case .number(let tid)? = t.json?["id"], case .number(let xid)? = x.json?["id"] else { throw RecordError(.missing, field: "id", "no ids") }
        return (p.id, Int64(tid)!, Int64(xid)!)
    }

    @Test(arguments: Backend.available)
    func oneUserCannotReadWriteOrDeleteAnothersData(backend: Backend) async throws {
        let server = try ServerProcess(backend: backend)
        defer { server.kill() }
        let alice = server.client().with(token: try await server.register("alice"))
        let mallory = server.client().with(token: try await server.register("mallory"))
        let (p, t, x) = try await seed(alice)
        let q = [("portfolioId", "\(p)")]
        let attempts: [(HTTPMethod, String, [(String, String)], String?)] = [
            (.GET, "/portfolios/\(p)", [], nil),
            (.GET, "/portfolios/by_name/Mine", [], nil),
            (.DELETE, "/portfolios/\(p)", [], nil), (.PUT, "/portfolios/\(p)", [], #"{"name": "Stolen"}"#),
            (.GET, "/trades", q, nil), (.GET, "/trades/\(t)", q, nil), (.DELETE, "/trades/\(t)", q, nil),
            (.POST, "/trades", q, Self.trade), (.POST, "/trades/batch", q, "[\(Self.trade)]"),
            (.GET, "/transactions", q, nil), (.GET, "/transactions/\(x)", q, nil), (.DELETE, "/transactions/\(x)", q, nil),
            (.POST, "/transactions", q, Self.transaction), (.POST, "/transactions/batch", q, "[\(Self.transaction)]")
        ]
        for (method, path, query, body) in attempts {
            let a = try await mallory.call(method, path, query: query, body: body.map { Array($0.utf8) })
            #expect(a.status == 404, "\(method) \(path) answered \(a.status)")
        }
        // Mallory's own portfolio id with Alice's operation ids reaches nothing either.
        let own = try await mallory.createPortfolio(named: "Mine")
        #expect(try await mallory.call(.GET, "/trades/\(t)", query: [("portfolioId", "\(own.id)")]).status == 404)
        #expect(try await mallory.call(.DELETE, "/transactions/\(x)", query: [("portfolioId", "\(own.id)")]).status == 404)
        #expect(try await mallory.portfolios().map(\.name) == ["Mine"])
        // Alice's data is untouched.
        #expect(try await alice.records(TradeRecord.self, portfolio: p).count == 1)
        #expect(try await alice.records(TransactionRecord.self, portfolio: p).count == 1)
        #expect(try await alice.call(.DELETE, "/trades/\(t)", query: q).status == 200)
        #expect(try await alice.records(TradeRecord.self, portfolio: p).isEmpty)
        await alice.shutdown()
        await mallory.shutdown()
    }

    @Test(arguments: Backend.available)
    func aPortfolioIsRenamedKeepingItsIdAndOperations(backend: Backend) async throws {
        let server = try ServerProcess(backend: backend)
        defer { server.kill() }
        let alice = server.client().with(token: try await server.register("alice"))
        let (p, _, _) = try await seed(alice)
        let other = try await alice.createPortfolio(named: "Other")
        let renamed = try await alice.call(.PUT, "/portfolios/\(p)", body: Array(#"{"name": "Long-term"}"#.utf8))
        #expect(renamed.status == 200)
        #expect(renamed.json?["name"] == .string("Long-term"))
        #expect(try await alice.portfolio(named: "Long-term")?.id == p)
        #expect(try await alice.records(TradeRecord.self, portfolio: p).count == 1)
        // Another of her portfolios' names: a conflict naming it; a missing one: not found; no name: refused.
        let taken = try await alice.call(.PUT, "/portfolios/\(p)", body: Array(#"{"name": "Other"}"#.utf8))
        #expect(taken.status == 409 && taken.json?["id"] == .number("\(other.id)"))
        #expect(try await alice.call(.PUT, "/portfolios/999999", body: Array(#"{"name": "X"}"#.utf8)).status == 404)
        #expect(try await alice.call(.PUT, "/portfolios/\(p)", body: Array(#"{"name": ""}"#.utf8)).status == 400)
        await alice.shutdown()
    }

    /// A token is HS256 or nothing: `none`, another HMAC and RS256 (the secret taken for a public
    /// key) are refused by their header, whatever their signature.
    @Test(arguments: Backend.available)
    func tokensOfAnotherAlgorithmAreRefused(backend: Backend) async throws {
        let server = try ServerProcess(backend: backend)
        defer { server.kill() }
        _ = try await server.register("alice")
        func b64(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let now = Int(Date().timeIntervalSince1970)
        let payload = b64(Array(#"{"sub":"alice","iat":\#(now),"exp":\#(now + 3600)}"#.utf8))
        let key = SymmetricKey(data: Array(ServerProcess.secret.utf8))
        for alg in ["none", "HS512", "RS256", "hs256"] {
            let input = b64(Array(#"{"alg":"\#(alg)","typ":"JWT"}"#.utf8)) + "." + payload
            let mac = b64(Array(HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key)))
            for token in [input + ".", input + "." + mac] {
                let answer = try await BalancesClient(base: server.base, token: token, retry: RetryPolicy(attempts: 1)).shutdownAfter {
                    try await $0.call(.GET, "/portfolios")
                }
                #expect(answer.status == 401 && BalancesClient.message(answer).contains("not HS256"), "\(alg): \(answer.status)")
            }
        }
        // The same claims under HS256 with that signature are good: the refusals above are the header's.
        let input = b64(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + payload
        let good = input + "." + b64(Array(HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key)))
        let answer = try await BalancesClient(base: server.base, token: good, retry: RetryPolicy(attempts: 1)).shutdownAfter {
            try await $0.call(.GET, "/portfolios")
        }
        #expect(answer.status == 200)
    }

    @Test(arguments: Backend.available)
    func callsWithoutOrWithABadOrExpiredTokenAreRefused(backend: Backend) async throws {
        let server = try ServerProcess(backend: backend)
        defer { server.kill() }
        _ = try await server.register("alice")
        let signer = TokenSigner(secret: Array(ServerProcess.secret.utf8))
        let expired = try await signer.token(for: "alice", now: Int64(Date().timeIntervalSince1970) - 3601)
        let otherSecret = try await TokenSigner(secret: Array("another secret".utf8)).token(for: "alice")
        let unknownUser = try await signer.token(for: "nobody")
        let now = Int64(Date().timeIntervalSince1970)
        let notYet = try await signer.token(for: "alice", now: now, notBefore: now + 600)
        let tokens: [String?] = [nil, "garbage", "a.b.c", expired, otherSecret, unknownUser, notYet]
        for token in tokens {
            let client = BalancesClient(base: server.base, token: token, retry: RetryPolicy(attempts: 1))
            let a = try await client.call(.GET, "/portfolios")
            #expect(a.status == 401, "token \(token ?? "none") answered \(a.status)")
            #expect(!BalancesClient.message(a).isEmpty)
            await client.shutdown()
        }
        let expiredAnswer = try await BalancesClient(base: server.base, token: expired, retry: RetryPolicy(attempts: 1)).shutdownAfter {
            try await $0.call(.GET, "/portfolios")
        }
        #expect(BalancesClient.message(expiredAnswer).contains("expired"))
        // A token whose nbf lies in the future is refused, saying so; one whose nbf has passed is good.
        let notYetAnswer = try await BalancesClient(base: server.base, token: notYet, retry: RetryPolicy(attempts: 1)).shutdownAfter {
            try await $0.call(.GET, "/portfolios")
        }
        #expect(BalancesClient.message(notYetAnswer).contains("not valid yet"), "\(BalancesClient.message(notYetAnswer))")
        let alreadyGood = try await signer.token(for: "alice", now: now - 60, notBefore: now - 30)
        let goodAnswer = try await BalancesClient(base: server.base, token: alreadyGood, retry: RetryPolicy(attempts: 1)).shutdownAfter {
            try await $0.call(.GET, "/portfolios")
        }
        #expect(goodAnswer.status == 200)
        let login = server.client()
        await #expect(throws: ServerFailure.self) { try await login.logIn(username: "alice", password: "wrong") }
        await #expect(throws: ServerFailure.self) { try await login.logIn(username: "nobody", password: "wrong") }
        #expect(try await login.register(username: "alice", password: "x", email: "") == nil)
        await login.shutdown()
    }

    @Test(arguments: Backend.available)
    func malformedJSONAndUnknownValuesGetA4xxWithAMessage(backend: Backend) async throws {
        let server = try ServerProcess(backend: backend)
        defer { server.kill() }
        let alice = server.client().with(token: try await server.register("alice"))
        let p = try await alice.createPortfolio(named: "P")
        let q = [("portfolioId", "\(p.id)")]
        let bodies: [(String, String, String)] = [
            ("/trades", #"{"dateTime": "2019-11-25T08:08:44", "#, "malformed JSON"),
            ("/trades", Self.trade.replacingOccurrences(of: #""Buy""#, with: #""Hold""#), "tradeType: expected Buy or Sell, found 'Hold'"),
            ("/trades", Self.trade.replacingOccurrences(of: "eos-btc", with: "eosbtc"), "instrument"),
            ("/trades", Self.trade.replacingOccurrences(of: "0.0003597", with: "\"abc\""), "tradedPrice"),
            ("/trades", Self.trade.replacingOccurrences(of: "2019-11-25T08:08:44", with: "yesterday"), "dateTime"),
            ("/trades", "[1, 2]", "expected a trade object"),
            ("/trades/batch", "[\(Self.trade), {\"x\": 1}]", "item 1"),
            ("/trades/batch", "{}", "expected an array"),
            ("/transactions", Self.transaction.replacingOccurrences(of: "Deposit", with: "Gift"), "transactionType: expected Deposit or Withdraw"),
            ("/transactions", Self.transaction.replacingOccurrences(of: "Complete", with: "Failed"), "transactionStatus"),
            ("/transactions", "\u{FF}\u{FE}", "malformed JSON"),
            ("/transactions", "", "malformed JSON")
        ]
        for (path, body, message) in bodies {
            let a = try await alice.call(.POST, path, query: q, body: Array(body.utf8))
            #expect((400..<500).contains(a.status), "\(path) \(body) answered \(a.status)")
            #expect(BalancesClient.message(a).contains(message), "\(BalancesClient.message(a))")
        }
        #expect(try await alice.call(.POST, "/portfolios", body: Array("{\"name\": 5}".utf8)).status == 400)
        #expect(try await alice.call(.GET, "/trades", query: [("portfolioId", "x")]).status == 400)
        #expect(try await alice.call(.GET, "/trades").status == 400)
        // Nothing was stored, and the server still answers.
        #expect(try await alice.records(TradeRecord.self, portfolio: p.id).isEmpty)
        #expect(try await alice.portfolios().count == 1)
        await alice.shutdown()
    }

    @Test(arguments: Backend.available)
    func quotesAndSQLInValuesAreStoredVerbatim(backend: Backend) async throws {
        let server = try ServerProcess(backend: backend)
        defer { server.kill() }
        let alice = server.client().with(token: try await server.register("alice'; DROP TABLE users;--"))
        let name = #"O'Brien "Family"; DROP TABLE portfolios;-- /%20 ?&=#"#
        let p = try await alice.createPortfolio(named: name)
        #expect(p.name == name)
        #expect(try await alice.portfolio(named: name) == p)
        #expect(try await alice.portfolios() == [p])
        var trade = try TradeRecord(json: JSONValue.parse(Self.trade))
        trade.tradeValueId = #"1' OR '1'='1"; DELETE FROM trades;--"#
        guard case .created(let stored) = try await alice.post(trade, portfolio: p.id) else {
            Issue.record("not created")
            return
        }
        #expect(stored.withoutId == trade)
        #expect(try await alice.records(TradeRecord.self, portfolio: p.id).map(\.withoutId) == [trade])
        // The same value id again is answered as a duplicate with the held record.
        guard case .alreadyPresent(let held) = try await alice.post(trade, portfolio: p.id) else {
            Issue.record("stored twice")
            return
        }
        #expect(held == stored)
        await alice.shutdown()
    }

    /// Text is never cut at a NUL character (a portfolio `a\u0000b` stored as `a`, value ids
    /// `v\u0000a` and `v\u0000b` taken for one): it is refused with 400 naming where.
    @Test(arguments: Backend.available)
    func textWithANulCharacterIsRefusedNotCut(backend: Backend) async throws {
        let server = try ServerProcess(backend: backend)
        defer { server.kill() }
        let alice = server.client().with(token: try await server.register("alice"))
        let named = try await alice.call(.POST, "/portfolios", body: Array(#"{"name": "a\u0000b"}"#.utf8))
        #expect(named.status == 400 && BalancesClient.message(named).contains("name: the text holds a NUL character"), "\(BalancesClient.message(named))")
        #expect(try await alice.portfolios().isEmpty)
        let p = try await alice.createPortfolio(named: "a")
        let q = [("portfolioId", "\(p.id)")]
        for id in ["v\\u0000a", "v\\u0000b"] {
            let body = Self.trade.replacingOccurrences(of: #""37605094""#, with: "\"\(id)\"")
            let answer = try await alice.call(.POST, "/trades", query: q, body: Array(body.utf8))
            #expect(
                answer.status == 400 && BalancesClient.message(answer).contains("tradeValueId: the text holds a NUL character"),
                "\(BalancesClient.message(answer))")
        }
        let batch = try await alice.call(
            .POST, "/trades/batch", query: q, body: Array("[\(Self.trade.replacingOccurrences(of: "eos-btc", with: "eos-b\\u0000tc"))]".utf8))
        #expect(batch.status == 400 && BalancesClient.message(batch).contains("[0].instrument"), "\(BalancesClient.message(batch))")
        let byName = try await alice.call(.GET, "/portfolios/by_name/a%00b")
        #expect(byName.status == 400)
        #expect(try await alice.records(TradeRecord.self, portfolio: p.id).isEmpty)
        await alice.shutdown()
    }

    @Test func theSQLiteDatabaseIsReadableByItsOwnerOnly() async throws {
        let server = try ServerProcess()
        defer { server.kill() }
        let alice = server.client().with(token: try await server.register("alice"))
        _ = try await alice.createPortfolio(named: "P")
        for file in ["balances.sqlite", "balances.sqlite-wal", "balances.sqlite-shm"] {
            var st = stat()
            guard stat(server.directory + "/" + file, &st) == 0 else { continue }
            #expect(st.st_mode & 0o777 == 0o600, "\(file): \(String(st.st_mode & 0o777, radix: 8))")
        }
        await alice.shutdown()
    }

    /// A portfolio's records are found through the value-key index alone: a file made with the
    /// earlier index on the portfolio loses it, and listing a portfolio still searches an index
    /// (and answers in the order stored).
    @Test func aPortfolioIsListedThroughTheValueKeyIndex() async throws {
        let dir = try CLI.temporaryDirectory()
        var server = try ServerProcess(directory: dir)
        let token = try await server.register("alice")
        server.stop()
        do {
            let db = try SQLiteDatabase(path: dir + "/balances.sqlite")
            try db.execute("CREATE INDEX trades_by_portfolio ON trades (portfolio_id)")
        }
        server = try ServerProcess(directory: dir)
        defer { server.kill() }
        let alice = server.client().with(token: token)
        let p = try await alice.createPortfolio(named: "P")
        let a = try TradeRecord(json: JSONValue.parse(Self.trade))
        let trades = (0..<5).map { i in
            var t = a
            t.tradeValueId = "v\(9 - i)"
            return t
        }
        _ = try #require(try await alice.postBatch(trades, portfolio: p.id))
        #expect(try await alice.records(TradeRecord.self, portfolio: p.id).map(\.tradeValueId) == ["v9", "v8", "v7", "v6", "v5"])
        await alice.shutdown()
        server.stop()

        let db = try SQLiteDatabase(path: dir + "/balances.sqlite")
        let indexes = try db.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name") { $0.text(0) }
        #expect(indexes == ["trades_by_value_key", "transactions_by_value_key"])
        for sql in [TradeRecord.selectAll, TradeRecord.selectValueIds, TransactionRecord.selectAll, TransactionRecord.selectValueIds] {
            let plan = try db.rows("EXPLAIN QUERY PLAN " + sql, [.integer(p.id)]) { $0.text(3) }
            #expect(plan.contains { $0.hasPrefix("SEARCH") && $0.contains("_by_value_key (portfolio_id=?)") }, "\(sql): \(plan)")
        }
    }

    @Test(arguments: Backend.available)
    func batchesAnswerWhatWasCreatedAndWhatExisted(backend: Backend) async throws {
        let server = try ServerProcess(backend: backend)
        defer { server.kill() }
        let alice = server.client().with(token: try await server.register("alice"))
        let p = try await alice.createPortfolio(named: "P")
        let a = try TradeRecord(json: JSONValue.parse(Self.trade))
        var b = a
        b.tradeValueId = "37605095"
        b.tradedPrice = ExactDecimal(jsonNumber: "123456789012345678.123456789012345678")!
        let first = try #require(try await alice.postBatch([a], portfolio: p.id))
        #expect(first.created.map(\.withoutId) == [a] && first.existing.isEmpty)
        let second = try #require(try await alice.postBatch([a, b, b], portfolio: p.id))
        #expect(second.created.map(\.withoutId) == [b])
        #expect(second.existing.map(\.withoutId) == [a, b])
        let held = try await alice.records(TradeRecord.self, portfolio: p.id)
        #expect(held.map(\.withoutId) == [a, b])
        // Read back with all 36 digits: nothing went through a binary float.
        #expect(held[1].tradedPrice.description == "123456789012345678.123456789012345678")
        // Counted only, the same answer: push asks for a minimal one (RFC 7240), which holds the two
        // counts and no records; without asking, the records come back.
        #expect(try await alice.postBatchCounts([a, b], portfolio: p.id) == BatchCounts(created: 0, existing: 2))
        var c = a
        c.tradeValueId = "37605096"
        var body = JSONWriter()
        body.beginArray()
        for r in [a, c] { r.write(to: &body, secondsAlways: true) }
        body.endArray()
        let query = [("portfolioId", "\(p.id)")]
        for prefer in ["return=minimal", "respond-async, Return=Minimal"] {
            let minimal = try await alice.call(.POST, "/trades/batch", query: query, body: body.bytes, headers: [("Prefer", prefer)])
            #expect(minimal.status == 200 && minimal.preferenceApplied == "return=minimal")
            #expect(
                String(decoding: minimal.body, as: UTF8.self) == (prefer == "return=minimal" ? #"{"created":1,"existing":1}"# : #"{"created":0,"existing":2}"#))
        }
        let full = try await alice.call(.POST, "/trades/batch", query: query, body: body.bytes, headers: [("Prefer", "return=representation")])
        #expect(full.preferenceApplied == nil)
        #expect(try JSONValue.elementCounts(ofMembers: ["created", "existing"], of: full.body) == [0, 2])
        // Only the value ids, when asked (as push asks); other `fields` are not applied.
        var unnamed = a
        unnamed.tradeValueId = nil
        _ = try await alice.postBatch([unnamed], portfolio: p.id)
        let sparse = try await alice.call(.GET, "/trades", query: [("portfolioId", "\(p.id)"), ("fields", "tradeValueId")])
        #expect(sparse.status == 200)
        #expect(
            String(decoding: sparse.body, as: UTF8.self)
                == #"[{"tradeValueId":"\#(a.tradeValueId!)"},{"tradeValueId":"37605095"},{"tradeValueId":"37605096"},{"tradeValueId":null}]"#)
        #expect(try await alice.valueIds(TradeRecord.self, portfolio: p.id) == [a.tradeValueId, "37605095", "37605096", nil])
        let other = try await alice.call(.GET, "/trades", query: [("portfolioId", "\(p.id)"), ("fields", "instrument")])
        #expect(try JSONValue.member("instrument", ofEachElementOf: other.body).count == 4)
        #expect(try JSONValue.member("tradedPrice", ofEachElementOf: other.body).compactMap { $0 }.count == 4)
        // Deleting the portfolio deletes its operations.
        #expect(try await alice.call(.DELETE, "/portfolios/\(p.id)").status == 200)
        #expect(try await alice.call(.GET, "/trades", query: [("portfolioId", "\(p.id)")]).status == 404)
        await alice.shutdown()
    }

    @Test func theContextPathIsNormalizedOnceAndPrintedAsServed() async throws {
        let server = try ServerProcess(arguments: ["--context-path", "api//v1/"])
        defer { server.kill() }
        #expect(server.base == "http://127.0.0.1:\(server.port)/api/v1")
        let alice = server.client().with(token: try await server.register("alice"))
        #expect(try await alice.portfolios().isEmpty)
        await alice.shutdown()
        let root = try ServerProcess(arguments: ["--context-path", "/"])
        defer { root.kill() }
        #expect(root.base == "http://127.0.0.1:\(root.port)")
        #expect(try await root.register("alice").isEmpty == false)
    }

    @Test(arguments: Backend.available)
    func zeroSecondsAreDroppedAsTheOriginalDoes(backend: Backend) async throws {
        let server = try ServerProcess(backend: backend)
        defer { server.kill() }
        let alice = server.client().with(token: try await server.register("alice"))
        let p = try await alice.createPortfolio(named: "P")
        let a = try await alice.call(.POST, "/transactions", query: [("portfolioId", "\(p.id)")], body: Array(Self.transaction.utf8))
        #expect(String(decoding: a.body, as: UTF8.self).contains(#""dateTime":"2019-11-27T15:29","#))
        #expect(try await alice.records(TransactionRecord.self, portfolio: p.id).first?.dateTime.textWithSeconds == "2019-11-27T15:29:00")
        await alice.shutdown()
    }
}

extension ServeAPITests {
    /// Uploads a file as the original apps do: multipart part `file`, `csvFileFormat=Dsx`.
    static func upload(
        _ path: String, to resource: String, portfolio: Int64, client: BalancesClient, server: ServerProcess
    ) async throws -> (status: Int, json: JSONValue?) {
        let boundary = "----tradeport-test-\(UUID().uuidString)"
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"export.csv\"\r\nContent-Type: text/csv\r\n\r\n".utf8)
        body += Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        var request = HTTPClientRequest(url: "\(server.base)/\(resource)/uploadFile?portfolioId=\(portfolio)&csvFileFormat=Dsx")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Token_" + (client.token ?? ""))
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .bytes(ByteBuffer(bytes: body))
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let response = try await http.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 24)
            try await http.shutdown()
            return (Int(response.status.code), try? JSONValue.parse(bytes.readableBytesView))
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    @Test(arguments: Backend.available, [false, true])
    func anUploadedDSXExportIsStoredAndARepeatedUploadOnlyByTheOriginal(backend: Backend, compat: Bool) async throws {
        let server = try ServerProcess(compat: compat, backend: backend)
        defer { server.kill() }
        let alice = server.client().with(token: try await server.register("alice"))
        let p = try await alice.createPortfolio(named: "P")
        let file = CLI.repositoryRoot + "/formats/samples/dsx-trades-example.csv"
        let first = try await Self.upload(file, to: "trades", portfolio: p.id, client: alice, server: server)
        #expect(first.status == 200)
        guard case .array(let created)? = first.json?["created"] else {
            Issue.record("no created list")
            return
        }
        #expect(created.count == 6)
        let second = try await Self.upload(file, to: "trades", portfolio: p.id, client: alice, server: server)
        guard case .array(let existing)? = second.json?["existing"] else {
            Issue.record("no existing list")
            return
        }
        #expect(existing.count == (compat ? 0 : 6))
        #expect(try await alice.records(TradeRecord.self, portfolio: p.id).count == (compat ? 12 : 6))
        // What the upload stored is what push sends for the same file.
        let doc = try CLI.decode(try CLI.run(["convert", file]).stdoutData)
        let expected = try doc.portfolios[0].trades.map { try BalancesMapping.record($0).get() }
        let held = try await alice.records(TradeRecord.self, portfolio: p.id).map(\.withoutId)
        #expect(Set(held) == Set(expected))
        let corrupted = try await Self.upload(CLI.fixtures + "/corrupted-trades.csv", to: "trades", portfolio: p.id, client: alice, server: server)
        guard case .array(let problems)? = corrupted.json?["problems"] else {
            Issue.record("no problems list")
            return
        }
        #expect(problems.count == 8)
        await alice.shutdown()
    }
}
