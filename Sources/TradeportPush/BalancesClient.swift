import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TradeportBalances
import TradeportCore

/// A client of the balances API: `base` holds the context path (`http://host:9999/bcv`).
public final class BalancesClient: Sendable {
    public let base: String
    private let http: HTTPClient
    public let token: String?
    public let retry: RetryPolicy

    /// The most an answer may hold (a portfolio's whole list of trades).
    static let answerLimit = 1 << 30

    public init(base: String, token: String? = nil, connections: Int = 8, retry: RetryPolicy = RetryPolicy()) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.token = token
        self.retry = retry
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(300))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(connections, 1))
        // A refused connection fails the attempt at once; `retry` decides what comes next.
        configuration.connectionPool.retryConnectionEstablishment = false
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    private init(base: String, token: String?, retry: RetryPolicy, http: HTTPClient) {
        self.base = base
        self.token = token
        self.retry = retry
        self.http = http
    }

    /// The same client, sending `token`. Shares the connections: shut down only one of them.
    public func with(token: String) -> BalancesClient {
        BalancesClient(base: base, token: token, retry: retry, http: http)
    }

    public func shutdown() async {
        try? await http.shutdown()
    }

    /// Runs `body` with this client, then shuts the client down, whether `body` returned or threw.
    public func shutdownAfter<T>(_ body: (BalancesClient) async throws -> T) async throws -> T {
        do {
            let result = try await body(self)
            await shutdown()
            return result
        } catch {
            await shutdown()
            throw error
        }
    }

    // MARK: Calls

    public struct Answer: Sendable {
        public let status: Int
        public let body: [UInt8]
        /// The answer's `Preference-Applied` header (RFC 7240), when it has one.
        public var preferenceApplied: String? = nil
        public var json: JSONValue? { try? JSONValue.parse(body) }
    }

    /// One call, retried on connection errors and 5xx answers (but 501) when `retrying`.
    /// 4xx answers are returned, not thrown: callers decide what a 404 or 409 means.
    public func call(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: [UInt8]? = nil,
        headers: [(String, String)] = [], retrying: Bool = true
    ) async throws -> Answer {
        var url = base + path
        if !query.isEmpty {
            url += "?" + query.map { "\($0.0)=\(Self.percentEncoded($0.1))" }.joined(separator: "&")
        }
        let callName = "\(method.rawValue) \(path)"
        return try await retry.run { _ in
            let reply = try await HTTPExchange.send(
                method, url, authorization: token.map { "Token_" + $0 }, headers: headers, body: body, on: http, base: base, call: callName,
                limit: Self.answerLimit
            ) { Self.message(Answer(status: $0.status, body: $0.body)) }
            return Answer(status: reply.status, body: reply.body, preferenceApplied: reply.headers.first(name: "Preference-Applied"))
        } retrying: {
            retrying && $0 is ServerFailure
        }
    }

    /// Why a call reached no answer, in plain words: `cannot connect to http://127.0.0.1:9:
    /// connection refused (is the server running there?)`, not NIO's `connection reset (error
    /// set): Connection refused (errno: 111)`.
    static func plain(_ error: any Error, base: String) -> String {
        let server = URL(string: base).map { "\($0.scheme ?? "http")://\($0.host ?? "?")\($0.port.map { ":\($0)" } ?? "")" } ?? base
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED: return "cannot connect to \(server): connection refused (is the server running there?)"
            case ECONNRESET: return "the connection to \(server) was reset"
            case ETIMEDOUT: return "cannot connect to \(server): timed out"
            case EHOSTUNREACH, ENETUNREACH: return "cannot connect to \(server): no route to the host"
            default: return "cannot talk to \(server): \(String(cString: strerror(io.errnoCode))) (errno \(io.errnoCode))"
            }
        }
        if let http = error as? HTTPClientError {
            switch http {
            case .connectTimeout: return "cannot connect to \(server): timed out"
            case .readTimeout, .deadlineExceeded: return "\(server) did not answer in time"
            case .remoteConnectionClosed: return "\(server) closed the connection before answering"
            default: break
            }
        }
        return "\(server): \(error)"
    }

    /// The server's message in an error answer (Spring's `message`, or the whole body).
    public static func message(_ answer: Answer) -> String {
        if case .string(let m)? = answer.json?["message"], !m.isEmpty { return m }
        let text = String(decoding: answer.body.prefix(500), as: UTF8.self)
        return text.isEmpty ? "status \(answer.status) with no message" : text
    }

    static func refused(_ answer: Answer, _ call: String) -> ServerFailure {
        ServerFailure(kind: .refused, call: call, status: answer.status, message: message(answer))
    }

    /// What a query value or a path segment keeps as it is.
    private static let unreserved: CharacterSet = {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return allowed
    }()

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private func decode<T>(_ answer: Answer, _ call: String, _ read: (JSONValue) throws(RecordError) -> T) throws -> T {
        let json: JSONValue
        do {
            json = try JSONValue.parse(answer.body)
        } catch {
            throw ServerFailure(kind: .unreadableAnswer, call: call, status: answer.status, message: error.description)
        }
        do {
            return try read(json)
        } catch {
            throw ServerFailure(kind: .unreadableAnswer, call: call, status: answer.status, message: error.description)
        }
    }

    // MARK: Authentication

    /// Logs in (or registers first) and answers the token.
    public func logIn(username: String, password: String) async throws -> String {
        let answer = try await call(.POST, "/auth/login", body: credentials(username, password, email: nil))
        guard answer.status == 200 else { throw Self.refused(answer, "POST /auth/login") }
        return try decode(answer, "POST /auth/login", Self.token)
    }

    /// Registers an account and answers its token; `nil` when the username is taken.
    public func register(username: String, password: String, email: String) async throws -> String? {
        let answer = try await call(.POST, "/auth/register", body: credentials(username, password, email: email))
        if answer.status == 409 { return nil }
        guard answer.status == 200 || answer.status == 201 else { throw Self.refused(answer, "POST /auth/register") }
        return try decode(answer, "POST /auth/register", Self.token)
    }

    private func credentials(_ username: String, _ password: String, email: String?) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("username")
        w.string(username)
        w.key("password")
        w.string(password)
        if let email {
            w.key("email")
            w.string(email)
        }
        w.endObject()
        return w.bytes
    }

    private static func token(_ json: JSONValue) throws(RecordError) -> String {
        guard case .string(let t)? = json["token"], !t.isEmpty else { throw RecordError(.missing, field: "token", "missing") }
        return t
    }

    // MARK: Portfolios

    public func portfolios() async throws -> [PortfolioRecord] {
        let answer = try await call(.GET, "/portfolios")
        guard answer.status == 200 else { throw Self.refused(answer, "GET /portfolios") }
        return try decode(answer, "GET /portfolios") { (json) throws(RecordError) in
            guard case .array(let items) = json else { throw RecordError(.wrongType, "expected an array") }
            var result: [PortfolioRecord] = []
            for item in items { result.append(try PortfolioRecord(json: item)) }
            return result
        }
    }

    /// The caller's portfolio named `name`, or `nil`.
    public func portfolio(named name: String) async throws -> PortfolioRecord? {
        let path = "/portfolios/by_name/" + Self.percentEncoded(name)
        let answer = try await call(.GET, path)
        if answer.status == 404 { return nil }
        guard answer.status == 200 else { throw Self.refused(answer, "GET /portfolios/by_name") }
        // An empty 200 is how some servers say "none".
        if answer.body.isEmpty || answer.json == .null { return nil }
        return try decode(answer, "GET /portfolios/by_name", PortfolioRecord.init(json:))
    }

    /// Creates a portfolio (a server that already holds one of that name may answer it, 409).
    public func createPortfolio(named name: String) async throws -> PortfolioRecord {
        var w = JSONWriter()
        w.beginObject()
        w.key("name")
        w.string(name)
        w.endObject()
        let answer = try await call(.POST, "/portfolios", body: w.bytes, retrying: false)
        guard answer.status == 200 || answer.status == 201 || answer.status == 409 else { throw Self.refused(answer, "POST /portfolios") }
        if answer.status == 409, (try? JSONValue.parse(answer.body)).flatMap({ try? PortfolioRecord(json: $0) }) == nil {
            throw Self.refused(answer, "POST /portfolios")
        }
        return try decode(answer, "POST /portfolios", PortfolioRecord.init(json:))
    }

    public func deletePortfolio(id: Int64) async throws {
        let answer = try await call(.DELETE, "/portfolios/\(id)")
        guard (200..<300).contains(answer.status) else { throw Self.refused(answer, "DELETE /portfolios") }
    }

    // MARK: Operations

    /// Everything a portfolio holds of one kind.
    public func records<R: OperationRecord>(_: R.Type, portfolio: Int64) async throws -> [R] {
        let call = "GET /\(R.resource)"
        let answer = try await self.call(.GET, "/\(R.resource)", query: [("portfolioId", String(portfolio))])
        guard answer.status == 200 else { throw Self.refused(answer, call) }
        return try decode(answer, call) { (json) throws(RecordError) in
            guard case .array(let items) = json else { throw RecordError(.wrongType, "expected an array of \(R.resource)") }
            var result: [R] = []
            result.reserveCapacity(items.count)
            for item in items { result.append(try R(json: item)) }
            return result
        }
    }

    /// The value ids a portfolio holds of one kind, one per record (`nil` for a record without
    /// one), read without decoding the rest of each record.
    public func valueIds<R: OperationRecord>(_: R.Type, portfolio: Int64) async throws -> [String?] {
        let call = "GET /\(R.resource)"
        // `fields`: only the value ids, from a server that answers sparsely (`tradeport serve`); one
        // that ignores it (the original) answers whole records, of which the same member is read.
        let answer = try await self.call(.GET, "/\(R.resource)", query: [("portfolioId", String(portfolio)), ("fields", R.valueIdKey)])
        guard answer.status == 200 else { throw Self.refused(answer, call) }
        do {
            return try JSONValue.member(R.valueIdKey, ofEachElementOf: answer.body)
        } catch {
            throw ServerFailure(kind: .unreadableAnswer, call: call, status: answer.status, message: error.description)
        }
    }

    /// What one post did.
    public enum PostOutcome<R: Sendable>: Sendable {
        case created(R)
        /// The server already held that value id (a server with the uniqueness rule: 409).
        case alreadyPresent(R?)
    }

    /// Posts one record. Not retried here: against a server without the uniqueness rule a retry
    /// of a post that did arrive would store it twice; the caller checks first.
    public func post<R: OperationRecord>(_ record: R, portfolio: Int64) async throws -> PostOutcome<R> {
        var out = OutputBuffer(capacity: 320)
        record.append(to: &out, secondsAlways: true)
        return try await post(object: out.array, R.self, portfolio: portfolio)
    }

    /// Posts one record given as its JSON object (as `EncodedRecords` holds it). Not retried, as `post`.
    public func post<R: OperationRecord>(object: [UInt8], _: R.Type, portfolio: Int64) async throws -> PostOutcome<R> {
        let call = "POST /\(R.resource)"
        let answer = try await self.call(.POST, "/\(R.resource)", query: [("portfolioId", String(portfolio))], body: object, retrying: false)
        if answer.status == 409 { return .alreadyPresent(try? R(json: JSONValue.parse(answer.body))) }
        guard answer.status == 200 || answer.status == 201 else { throw Self.refused(answer, call) }
        return .created(try decode(answer, call, R.init(json:)))
    }

    /// Posts many records at once; `nil` when the server has no batch endpoint (404, 405).
    /// Retried: a server with batches deduplicates, so a batch that did arrive is answered as existing.
    public func postBatch<R: OperationRecord>(_ records: [R], portfolio: Int64) async throws -> BatchAnswer<R>? {
        guard case (let answer, let call)? = try await sendBatch(body: Self.batchBody(records), R.self, portfolio: portfolio) else { return nil }
        return try decode(answer, call) { (json) throws(RecordError) in
            func list(_ key: String) throws(RecordError) -> [R] {
                guard case .array(let items)? = json[key] else { throw RecordError(.wrongType, field: key, "expected an array") }
                var result: [R] = []
                for item in items { result.append(try R(json: item)) }
                return result
            }
            return BatchAnswer(created: try list("created"), existing: try list("existing"))
        }
    }

    /// As `postBatch`, answering only how many records were created and how many existed. It asks
    /// for a minimal answer (`Prefer: return=minimal`): a server that applies it (`tradeport
    /// serve`) answers the two counts and writes no records back; from one that does not, the
    /// answer's records are counted, not read.
    public func postBatchCounts<R: OperationRecord>(_ records: [R], portfolio: Int64) async throws -> BatchCounts? {
        try await postBatchCounts(body: Self.batchBody(records), R.self, portfolio: portfolio)
    }

    /// As `postBatchCounts`, for a batch already written: a JSON array of records of type `R`.
    public func postBatchCounts<R: OperationRecord>(body: [UInt8], _: R.Type, portfolio: Int64) async throws -> BatchCounts? {
        guard case (let answer, let call)? = try await sendBatch(body: body, R.self, portfolio: portfolio, minimal: true) else { return nil }
        let counts: [Int?]
        do {
            if answer.preferenceApplied?.lowercased() == "return=minimal" {
                let json = try JSONValue.parse(answer.body)
                counts = ["created", "existing"].map { key in
                    if case .number(let n)? = json[key], let count = Int(n), count >= 0 { return count }
                    return nil
                }
            } else {
                counts = try JSONValue.elementCounts(ofMembers: ["created", "existing"], of: answer.body)
            }
        } catch {
            throw ServerFailure(kind: .unreadableAnswer, call: call, status: answer.status, message: error.description)
        }
        let expected = answer.preferenceApplied == nil ? "an array" : "a count"
        guard let created = counts[0] else {
            throw ServerFailure(kind: .unreadableAnswer, call: call, status: answer.status, message: "created: expected \(expected)")
        }
        guard let existing = counts[1] else {
            throw ServerFailure(kind: .unreadableAnswer, call: call, status: answer.status, message: "existing: expected \(expected)")
        }
        return BatchCounts(created: created, existing: existing)
    }

    /// Posts a batch: its answer (200 or 201) and the call's name, or `nil` without the endpoint.
    private func sendBatch<R: OperationRecord>(body: [UInt8], _: R.Type, portfolio: Int64, minimal: Bool = false) async throws -> (Answer, String)? {
        let call = "POST /\(R.resource)/batch"
        let answer = try await self.call(
            .POST, "/\(R.resource)/batch", query: [("portfolioId", String(portfolio))], body: body,
            headers: minimal ? [("Prefer", "return=minimal")] : [])
        if answer.status == 404 || answer.status == 405 { return nil }
        guard answer.status == 200 || answer.status == 201 else { throw Self.refused(answer, call) }
        return (answer, call)
    }
}

/// How many records a batch post created, and how many the portfolio already held.
public struct BatchCounts: Sendable, Equatable {
    public var created: Int
    public var existing: Int

    public init(created: Int, existing: Int) {
        self.created = created
        self.existing = existing
    }
}

extension BalancesClient {
    /// A batch's body: the records as a JSON array, written as the client sends them.
    static func batchBody<R: OperationRecord>(_ records: [R]) -> [UInt8] {
        var encoded = EncodedRecords()
        for r in records { encoded.append(r) }
        return encoded.array(0..<encoded.count)
    }
}
