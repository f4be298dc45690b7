import TradeportCore
import Foundation
import HummingbirdBcrypt
import Hummingbird
import TradeportBalances
import TradeportPrimitives

/// The balances API's routes (see the shared `balances-api.md`), plus what the original lacked:
/// duplicate posts answered as such, and batch posts.
struct BalancesAPI: Sendable {
    let store: any BalancesStorage
    let signer: TokenSigner
    let bcryptCost: UInt8
    /// Emulate the original server: no uniqueness rule, no batch endpoint.
    let compatOriginal: Bool
    /// A hash checked when the user does not exist, so that the answer's timing does not tell
    /// existing names apart.
    let unknownUserHash: String
    /// Whether the database answers (nil: it always does, an SQLite file).
    var health: DatabaseHealth? = nil

    /// The most a request body may hold.
    static let bodyLimit = 256 << 20
    /// The most records one batch may hold.
    static let batchLimit = 10_000

    /// `contextPath`: normalized (`/bcv`, or empty for the root).
    func register(on router: Router<BasicRequestContext>, contextPath: String) {
        let api = router.group(RouterPath(contextPath))

        // Whether the server can serve: 200 when its database answers, 503 when not.
        api.get("ready") { request, _ in
            guard let health, health.isDown else { return jsonResponse(.ok, Array(#"{"database":"up"}"#.utf8)) }
            return Self.unavailable(path: request.uri.path)
        }

        api.post("auth/register") { request, _ in await respond(request) { try await registerUser(request) } }
        api.post("auth/login") { request, _ in await respond(request) { try await logIn(request) } }

        api.get("portfolios") { request, _ in
            await respond(request) {
                let owner = try await caller(request)
                var w = JSONWriter()
                w.beginArray()
                for p in try await store.portfolios(owner: owner) { p.write(to: &w) }
                w.endArray()
                return jsonResponse(.ok, w.bytes)
            }
        }
        api.get("portfolios/by_name/{name}") { request, context in
            await respond(request) {
                let owner = try await caller(request)
                let raw = context.parameters.get("name") ?? ""
                let name = raw.removingPercentEncoding ?? raw
                if name.utf8.contains(0) { throw APIError.badRequest("name: \(Self.nulRefusal)") }
                guard let p = try await store.portfolio(named: name, owner: owner) else {
                    throw APIError.notFound("no portfolio named '\(name)'")
                }
                return portfolioResponse(p, .ok)
            }
        }
        api.get("portfolios/{id}") { request, context in
            await respond(request) {
                let owner = try await caller(request)
                return portfolioResponse(try await ownedPortfolio(try pathId(context), owner: owner), .ok)
            }
        }
        api.post("portfolios") { request, _ in
            await respond(request) {
                let owner = try await caller(request)
                let body = try await json(request)
                guard case .string(let name)? = body["name"], !name.isEmpty else {
                    throw APIError.badRequest("name: expected a non-empty string")
                }
                let (p, created) = try await store.addPortfolio(named: name, owner: owner)
                guard created else {
                    var w = JSONWriter()
                    p.write(to: &w)
                    throw APIError(status: .conflict, message: "a portfolio named '\(name)' exists", body: w.bytes)
                }
                return portfolioResponse(p, .ok)
            }
        }
        // Renames a portfolio (the original left this unimplemented); its id and operations stay.
        api.put("portfolios/{id}") { request, context in
            await respond(request) {
                let owner = try await caller(request)
                let id = try pathId(context)
                let body = try await json(request)
                guard case .string(let name)? = body["name"], !name.isEmpty else {
                    throw APIError.badRequest("name: expected a non-empty string")
                }
                switch try await store.renamePortfolio(id: id, to: name, owner: owner) {
                case .renamed(let p):
                    return portfolioResponse(p, .ok)
                case .notFound:
                    throw APIError.notFound("portfolio \(id) not found")
                case .nameTaken(let other):
                    var w = JSONWriter()
                    other.write(to: &w)
                    throw APIError(status: .conflict, message: "a portfolio named '\(name)' exists", body: w.bytes)
                }
            }
        }
        api.delete("portfolios/{id}") { request, context in
            await respond(request) {
                let owner = try await caller(request)
                let id = try pathId(context)
                guard try await store.deletePortfolio(id: id, owner: owner) else { throw APIError.notFound("portfolio \(id) not found") }
                return Response(status: .ok)
            }
        }

        registerOperations(on: api, TradeRecord.self)
        registerOperations(on: api, TransactionRecord.self)
    }

    /// The routes of trades or transactions: they share their shape and differ in their records.
    private func registerOperations<R: StoredRecord>(on api: RouterGroup<BasicRequestContext>, _: R.Type) {
        let resource = R.resource
        api.get(RouterPath(resource)) { request, _ in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                var w = JSONWriter(capacity: 1 << 16)
                w.beginArray()
                if request.uri.queryParameters["fields"].map(String.init) == R.valueIdKey {
                    // A sparse answer (`fields=tradeValueId`): what push reads to know what is held.
                    for valueId in try await store.valueIds(R.self, portfolio: portfolio) {
                        w.beginObject()
                        w.key(R.valueIdKey)
                        w.string(valueId)
                        w.endObject()
                    }
                } else {
                    for record in try await store.records(R.self, portfolio: portfolio) { record.write(to: &w, secondsAlways: false) }
                }
                w.endArray()
                return jsonResponse(.ok, w.bytes)
            }
        }
        api.get(RouterPath("\(resource)/{id}")) { request, context in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let id = try pathId(context)
                guard let record = try await store.record(R.self, id: id, portfolio: portfolio) else { throw APIError.notFound("\(R.noun) \(id) not found") }
                return recordResponse(record, .ok)
            }
        }
        api.post(RouterPath(resource)) { request, _ in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let record: R
                do {
                    record = try R(json: try await json(request))
                } catch let e as RecordError {
                    throw APIError.badRequest(e.message)
                }
                let (stored, created) = try await store.add([record], portfolio: portfolio, deduplicate: !compatOriginal)[0]
                guard created else {
                    var w = JSONWriter()
                    stored.write(to: &w, secondsAlways: false)
                    throw APIError(status: .conflict, message: "already held", body: w.bytes)
                }
                return recordResponse(stored, .ok)
            }
        }
        api.delete(RouterPath("\(resource)/{id}")) { request, context in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let id = try pathId(context)
                guard try await store.delete(R.self, id: id, portfolio: portfolio) else { throw APIError.notFound("\(R.noun) \(id) not found") }
                return Response(status: .ok)
            }
        }
        // The original's upload of a DSX export (multipart part `file`), read by tradeport's
        // readers; with the uniqueness rule a re-upload stores nothing twice.
        api.post(RouterPath("\(resource)/uploadFile")) { request, _ in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let format = request.uri.queryParameters["csvFileFormat"].map(String.init) ?? "Dsx"
                guard format.lowercased() == "dsx" else { throw APIError.badRequest("csvFileFormat: only Dsx is read, not '\(format)'") }
                guard let contentType = request.headers[.contentType] else {
                    throw APIError.badRequest("expected a multipart/form-data body with a part named 'file'")
                }
                let file: UploadForm.File
                do {
                    guard let found = try UploadForm.file(contentType: contentType, body: try await bytes(request)) else {
                        throw APIError.badRequest("expected a multipart/form-data body with a part named 'file'")
                    }
                    file = found
                } catch let e as UploadForm.Malformed {
                    throw APIError.badRequest("malformed multipart body: \(e.description)")
                }
                let export: UploadedExport
                do {
                    export = try await offload { try UploadedExport(bytes: file.bytes, resource: resource, filename: file.filename) }
                } catch {
                    throw APIError.badRequest("the file cannot be read as a DSX \(resource) export: \(error)")
                }
                let answers = try await store.add(R.records(of: export), portfolio: portfolio, deduplicate: !compatOriginal)
                var w = JSONWriter(capacity: 1 << 12)
                w.beginObject()
                writeCreatedAndExisting(answers, to: &w)
                w.key("problems")
                w.beginArray()
                for p in export.problems { w.string(p) }
                w.endArray()
                w.endObject()
                return jsonResponse(.ok, w.bytes)
            }
        }
        guard !compatOriginal else { return }
        api.post(RouterPath("\(resource)/batch")) { request, _ in
            await respond(request) {
                let portfolio = try await requestPortfolio(request)
                let body = try await bytes(request)
                // Straight from the bytes when the batch is plain (what push sends); else as a
                // tree, which also names what is wrong.
                let records = try R.records(inBatch: body) ?? batchRecords(body, R.self)
                guard records.count <= Self.batchLimit else {
                    throw APIError(status: .contentTooLarge, message: "a batch holds at most \(Self.batchLimit) records, not \(records.count)")
                }
                let answers = try await store.add(records, portfolio: portfolio, deduplicate: true)
                if Self.prefersMinimal(request) {
                    // Only the counts (RFC 7240): a bulk load has no use for its records echoed back.
                    let created = answers.count { $0.created }
                    var w = JSONWriter()
                    w.beginObject()
                    w.key("created")
                    w.number(Int64(created))
                    w.key("existing")
                    w.number(Int64(answers.count - created))
                    w.endObject()
                    var response = jsonResponse(.ok, w.bytes)
                    response.headers[Self.preferenceApplied] = "return=minimal"
                    return response
                }
                var w = JSONWriter(capacity: 1 << 16)
                w.beginObject()
                writeCreatedAndExisting(answers, to: &w)
                w.endObject()
                return jsonResponse(.ok, w.bytes)
            }
        }
    }

    // MARK: Authentication

    private func registerUser(_ request: Request) async throws -> Response {
        let body = try await json(request)
        guard case .string(let username)? = body["username"], !username.isEmpty else { throw APIError.badRequest("username: expected a non-empty string") }
        guard case .string(let password)? = body["password"], !password.isEmpty else { throw APIError.badRequest("password: expected a non-empty string") }
        var email = ""
        if let value = body["email"] {
            switch value {
            case .string(let s): email = s
            case .null: break
            default: throw APIError.badRequest("email: expected a string")
            }
        }
        let cost = bcryptCost
        let hash = await offload { Bcrypt.hash(password, cost: cost) }
        guard try await store.addUser(username: username, email: email, passwordHash: hash) else {
            throw APIError(status: .conflict, message: "the username '\(username)' is taken")
        }
        return try await tokenResponse(username)
    }

    private func logIn(_ request: Request) async throws -> Response {
        let body = try await json(request)
        guard case .string(let username)? = body["username"], case .string(let password)? = body["password"] else {
            throw APIError.badRequest("expected username and password")
        }
        let user = try await store.user(named: username)
        let hash = user?.passwordHash ?? unknownUserHash
        let valid = await offload { Bcrypt.verify(password, hash: hash) }
        guard user != nil, valid else { throw APIError.unauthorized("bad credentials") }
        return try await tokenResponse(username)
    }

    private func tokenResponse(_ username: String) async throws -> Response {
        var w = JSONWriter()
        w.beginObject()
        w.key("username"); w.string(username)
        w.key("token"); w.string(try await signer.token(for: username))
        w.endObject()
        return jsonResponse(.ok, w.bytes)
    }

    /// The calling user's id, from `Authorization: Token_<jwt>`.
    private func caller(_ request: Request) async throws -> Int64 {
        guard let header = request.headers[.authorization], header.hasPrefix("Token_") else {
            throw APIError.unauthorized("missing Authorization: Token_<jwt> header")
        }
        let username: String
        do {
            username = try await signer.subject(of: String(header.dropFirst(6)))
        } catch {
            throw APIError.unauthorized(error.description)
        }
        guard let user = try await store.user(named: username) else { throw APIError.unauthorized("the token's user does not exist") }
        return user.id
    }

    // MARK: Helpers

    private func requestPortfolio(_ request: Request) async throws -> Int64 {
        let owner = try await caller(request)
        guard let text = request.uri.queryParameters["portfolioId"] else { throw APIError.badRequest("portfolioId: missing") }
        guard let id = Int64(text) else { throw APIError.badRequest("portfolioId: expected an integer, found '\(text)'") }
        return try await ownedPortfolio(id, owner: owner).id
    }

    /// The caller's portfolio; another user's is "not found", as a missing one.
    private func ownedPortfolio(_ id: Int64, owner: Int64) async throws -> PortfolioRecord {
        guard let p = try await store.portfolio(id: id, owner: owner) else { throw APIError.notFound("portfolio \(id) not found") }
        return p
    }

    private func pathId(_ context: BasicRequestContext) throws -> Int64 {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text) else { throw APIError.badRequest("expected a numeric id, found '\(text)'") }
        return id
    }

    private func bytes(_ request: Request) async throws -> [UInt8] {
        var request = request
        do {
            return Array(try await request.collectBody(upTo: Self.bodyLimit).readableBytesView)
        } catch {
            throw APIError(status: .contentTooLarge, message: "the body is larger than \(Self.bodyLimit) bytes")
        }
    }

    /// A batch's records read through the JSON tree: every fault named, with its item.
    private func batchRecords<R: StoredRecord>(_ body: [UInt8], _: R.Type) throws -> [R] {
        guard case .array(let items) = try json(body) else {
            throw APIError.badRequest("expected an array of \(R.resource)")
        }
        guard items.count <= Self.batchLimit else {
            throw APIError(status: .contentTooLarge, message: "a batch holds at most \(Self.batchLimit) records, not \(items.count)")
        }
        var records: [R] = []
        records.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            do {
                records.append(try R(json: item))
            } catch {
                throw APIError.badRequest("item \(i): \(error.message)")
            }
        }
        return records
    }

    private func json(_ request: Request) async throws -> JSONValue {
        try json(try await bytes(request))
    }

    private func json(_ body: [UInt8]) throws -> JSONValue {
        let value: JSONValue
        var holdsNul = false
        do {
            value = try JSONValue.parse(body, holdsNul: &holdsNul)
        } catch {
            throw APIError.badRequest(error.description)
        }
        if holdsNul, let at = Self.nulCharacter(in: value, at: "") { throw APIError.badRequest("\(at): \(Self.nulRefusal)") }
        return value
    }

    /// RFC 7240's headers (HTTPField.Name, through the type Hummingbird exports).
    static let prefer = HTTPFields.Element.Name("Prefer")!
    static let preferenceApplied = HTTPFields.Element.Name("Preference-Applied")!

    /// Whether the request asks for a minimal answer: a `Prefer` header holding `return=minimal`.
    static func prefersMinimal(_ request: Request) -> Bool {
        request.headers[values: Self.prefer].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "return=minimal" }
        }
    }

    static let nulRefusal = "the text holds a NUL character (\\u0000), which is not stored"

    /// Where a string of `value` (or a member name) holds U+0000, or nil. Refused rather than
    /// stored: PostgreSQL's text cannot hold it, and C strings would end there. Walked only when the
    /// parser saw a `\u0000` escape.
    static func nulCharacter(in value: JSONValue, at path: String) -> String? {
        switch value {
        case .string(let s): return s.utf8.contains(0) ? (path.isEmpty ? "the body" : path) : nil
        case .array(let items):
            for (i, item) in items.enumerated() {
                if let at = nulCharacter(in: item, at: "\(path)[\(i)]") { return at }
            }
        case .object(let members):
            for (key, item) in members {
                let here = path.isEmpty ? key : path + "." + key
                if key.utf8.contains(0) { return here }
                if let at = nulCharacter(in: item, at: here) { return at }
            }
        default: break
        }
        return nil
    }

    /// `"created": […], "existing": […]` of a batch or an upload.
    private func writeCreatedAndExisting<R: StoredRecord>(_ answers: [(R, created: Bool)], to w: inout JSONWriter) {
        w.key("created")
        w.beginArray()
        for (r, created) in answers where created { r.write(to: &w, secondsAlways: false) }
        w.endArray()
        w.key("existing")
        w.beginArray()
        for (r, created) in answers where !created { r.write(to: &w, secondsAlways: false) }
        w.endArray()
    }

    private func portfolioResponse(_ p: PortfolioRecord, _ status: HTTPResponse.Status) -> Response {
        var w = JSONWriter()
        p.write(to: &w)
        return jsonResponse(status, w.bytes)
    }

    private func recordResponse(_ record: some StoredRecord, _ status: HTTPResponse.Status) -> Response {
        var w = JSONWriter()
        record.write(to: &w, secondsAlways: false)
        return jsonResponse(status, w.bytes)
    }

    /// Runs a handler, answering its refusals (and anything unexpected, as a 500) as JSON.
    /// The answer to `request`: `body`'s, or its error's. Over a database that can go away
    /// (`health`), a request that comes while it does not answer is answered 503 at once, and one
    /// waiting on it when it stops answering is answered 503 within about a second (the work is
    /// cancelled and left to end: every write is one transaction and idempotent by value id, so a
    /// client that sends again stores nothing twice).
    private func respond(_ request: Request, _ body: @escaping @Sendable () async throws -> Response) async -> Response {
        let path = request.uri.path
        guard let health else { return await Self.answer(path, health: nil, body) }
        if health.isDown { return Self.unavailable(path: path) }
        do {
            let answer = try await Deadline.race({ await Self.answer(path, health: health, body) }) {
                while !health.isDown, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(200)) }
            }
            return answer ?? Self.unavailable(path: path)
        } catch {
            return APIError(status: .internalServerError, message: "\(error)").response(path: path)
        }
    }

    private static func answer(_ path: String, health: DatabaseHealth?, _ body: @Sendable () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let e as APIError {
            return e.response(path: path)
        } catch {
            if let health, PostgresStore.isUnreachable(error) {
                health.noteUnreachable()
                return unavailable(path: path)
            }
            return APIError(status: .internalServerError, message: "\(error)").response(path: path)
        }
    }

    /// 503 with `Retry-After`: the database does not answer now.
    static func unavailable(path: String) -> Response {
        var response = APIError(status: .serviceUnavailable, message: "the database does not answer; try again in a moment").response(path: path)
        response.headers[.retryAfter] = "\(DatabaseHealth.retryAfter)"
        return response
    }
}
