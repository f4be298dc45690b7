import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TradeportBalances
import TradeportCore

/// A client of Ghostfolio's API (3.x, as its source of 2026 states it): a login with the user's
/// security token (`POST /api/v1/auth/anonymous` answers a JWT, sent as `Bearer` after), the
/// user, the accounts, the export (the activities with their comments) and the import with its
/// dry run. Connection errors and 5xx answers are retried (`RetryPolicy`); a 401 logs in again
/// once.
public final class GhostfolioClient: @unchecked Sendable {
    public let base: String
    private let securityToken: String
    private let retry: RetryPolicy
    private let http: HTTPClient
    private let lock = NSLock()
    // Under `lock`.
    private var jwt: String?

    /// - Parameter base: the instance's address, without `/api` (`http://localhost:3333`).
    public init(base: String, securityToken: String, retry: RetryPolicy = RetryPolicy()) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.securityToken = securityToken
        self.retry = retry
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(300))
        configuration.connectionPool.retryConnectionEstablishment = false
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    public func shutdown() async { try? await http.shutdown() }

    public struct Answer: Sendable {
        public let status: Int
        public let body: [UInt8]
        public var json: JSONValue? { try? JSONValue.parse(body) }
    }

    /// One call, retried on connection errors and 5xx answers; 4xx answers are returned.
    func call(
        _ method: HTTPMethod, _ path: String, query: String = "", body: [UInt8]? = nil, bearer: String?, retrying: Bool = true
    ) async throws -> Answer {
        let url = base + path + (query.isEmpty ? "" : "?" + query)
        let callName = "\(method.rawValue) \(path)\(query.isEmpty ? "" : "?" + query)"
        return try await retry.run { _ in
            let reply = try await HTTPExchange.send(
                method, url, authorization: bearer.map { "Bearer " + $0 }, body: body, on: http, base: base, call: callName, limit: 1 << 30
            ) { Self.message(Answer(status: $0.status, body: $0.body)) }
            return Answer(status: reply.status, body: reply.body)
        } retrying: {
            retrying && $0 is ServerFailure
        }
    }

    /// Ghostfolio's message in an error answer: `message` (a text, or the validation pipe's list).
    public static func message(_ answer: Answer) -> String {
        switch answer.json?["message"] {
        case .string(let m)?: return m
        case .array(let list)?:
            let texts = list.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
            if !texts.isEmpty { return texts.joined(separator: "; ") }
        default: break
        }
        let text = String(decoding: answer.body.prefix(500), as: UTF8.self)
        return text.isEmpty ? "status \(answer.status) with no message" : text
    }

    /// Logs in with the security token: the JWT the other calls send.
    public func logIn() async throws -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("accessToken")
        w.string(securityToken)
        w.endObject()
        let call = "POST /api/v1/auth/anonymous"
        let answer = try await self.call(.POST, "/api/v1/auth/anonymous", body: w.bytes, bearer: nil)
        guard answer.status == 200 || answer.status == 201 else {
            throw ServerFailure(
                kind: .refused, call: call, status: answer.status,
                message: answer.status == 403 ? "the security token was not accepted (GHOSTFOLIO_TOKEN)" : Self.message(answer))
        }
        guard case .string(let token)? = answer.json?["authToken"], !token.isEmpty else {
            throw ServerFailure(kind: .unreadableAnswer, call: call, status: answer.status, message: "no authToken in the answer")
        }
        lock.withLock { jwt = token }
        return token
    }

    /// A call with the JWT (logging in first, and again once on a 401).
    func authorized(_ method: HTTPMethod, _ path: String, query: String = "", body: [UInt8]? = nil, retrying: Bool = true) async throws -> Answer {
        var token = lock.withLock { jwt }
        if token == nil { token = try await logIn() }
        let answer = try await call(method, path, query: query, body: body, bearer: token, retrying: retrying)
        // A 401 means nothing was done: the same call again, with a new token.
        guard answer.status == 401 else { return answer }
        return try await call(method, path, query: query, body: body, bearer: try await logIn(), retrying: retrying)
    }

    /// The answer's JSON, or a failure naming the call: a refusal for a 4xx.
    func json(_ method: HTTPMethod, _ path: String, query: String = "", body: [UInt8]? = nil, expecting: Set<Int> = [200]) async throws -> JSONValue {
        let answer = try await authorized(method, path, query: query, body: body)
        let call = "\(method.rawValue) \(path)\(query.isEmpty ? "" : "?" + query)"
        guard expecting.contains(answer.status) else {
            throw ServerFailure(kind: .refused, call: call, status: answer.status, message: Self.message(answer))
        }
        guard let json = answer.json else {
            throw ServerFailure(kind: .unreadableAnswer, call: call, status: answer.status, message: "the answer is not JSON")
        }
        return json
    }

    /// The user's id (`GET /api/v1/user`).
    public func userId() async throws -> String {
        let json = try await json(.GET, "/api/v1/user")
        guard case .string(let id)? = json["id"] else {
            throw ServerFailure(kind: .unreadableAnswer, call: "GET /api/v1/user", status: 200, message: "no id in the answer")
        }
        return id
    }

    /// The user's accounts by name (`GET /api/v1/account`); the first of a name when several
    /// share it. Each is also found by `"\u{0}id:" + id`.
    public func accounts() async throws -> [String: String] {
        let json = try await json(.GET, "/api/v1/account")
        guard case .array(let list)? = json["accounts"] else {
            throw ServerFailure(kind: .unreadableAnswer, call: "GET /api/v1/account", status: 200, message: "no accounts in the answer")
        }
        var byName: [String: String] = [:]
        for account in list {
            guard case .string(let name)? = account["name"], case .string(let id)? = account["id"] else { continue }
            if byName[name] == nil { byName[name] = id }
            // Also by id, for an account tradeport created that the user renamed since.
            byName["\u{0}id:" + id] = id
        }
        return byName
    }

    /// Creates an account (`POST /api/v1/account`) with the id given.
    public func createAccount(id: String, name: String, currency: String) async throws {
        var w = JSONWriter()
        w.beginObject()
        w.key("comment")
        w.string("created by tradeport for its portfolio \(name)")
        w.key("currency")
        w.string(currency)
        w.key("id")
        w.string(id)
        w.key("name")
        w.string(name)
        w.key("platformId")
        w.null()
        w.endObject()
        _ = try await json(.POST, "/api/v1/account", body: w.bytes, expecting: [200, 201])
    }

    /// The comments of every activity the user holds (`GET /api/v1/export`, which, unlike the
    /// activities list, is not redacted by the user's "restricted view").
    public func comments() async throws -> Set<String> {
        let json = try await json(.GET, "/api/v1/export")
        guard case .array(let list)? = json["activities"] else {
            throw ServerFailure(kind: .unreadableAnswer, call: "GET /api/v1/export", status: 200, message: "no activities in the answer")
        }
        var comments = Set<String>()
        for activity in list { if case .string(let c)? = activity["comment"] { comments.insert(c.trimmingCharacters(in: .whitespaces)) } }
        return comments
    }

    /// What an import answered: the activities it returned (every one sent for a dry run, with
    /// `IS_DUPLICATE` flags; the ones created for an import), by comment.
    public struct ImportAnswer: Sendable {
        public var count: Int
        public var duplicateComments: Set<String>
    }

    /// Why an import was refused: the status and Ghostfolio's message.
    public struct Refusal: Error, Sendable {
        public let status: Int
        public let message: String
    }

    /// `POST /api/v1/import` (`dryRun=true` exactly, for a dry run).
    ///
    /// An import is never sent twice by this call: a 5xx or a connection lost after sending may
    /// come while the instance still creates the activities, and a second request would read the
    /// instance before they are there and create them again (`GhostfolioTarget` looks at what the
    /// instance holds instead). A dry run writes nothing, and is retried.
    public func importActivities(body: [UInt8], dryRun: Bool) async throws -> Result<ImportAnswer, Refusal> {
        let answer = try await authorized(.POST, "/api/v1/import", query: dryRun ? "dryRun=true" : "", body: body, retrying: dryRun)
        guard answer.status == 200 || answer.status == 201 else {
            return .failure(Refusal(status: answer.status, message: Self.message(answer)))
        }
        guard case .array(let list)? = answer.json?["activities"] else {
            throw ServerFailure(kind: .unreadableAnswer, call: "POST /api/v1/import", status: answer.status, message: "no activities in the answer")
        }
        var duplicates = Set<String>()
        for activity in list {
            if case .string("IS_DUPLICATE")? = activity["error"]?["code"], case .string(let c)? = activity["comment"] { duplicates.insert(c) }
        }
        return .success(ImportAnswer(count: list.count, duplicateComments: duplicates))
    }
}
