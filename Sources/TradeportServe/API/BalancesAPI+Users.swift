import Foundation
import Hummingbird
import HummingbirdBcrypt
import TradeportBalances
import TradeportCore
import TradeportPrimitives

/// The users' routes: registration and logging in, and who a request's token names.
extension BalancesAPI {
    func registerUsers(on api: RouterGroup<BasicRequestContext>) {
        api.post("auth/register") { request, _ in await respond(request) { try await registerUser(request) } }
        api.post("auth/login") { request, _ in await respond(request) { try await logIn(request) } }
    }

    func registerUser(_ request: Request) async throws -> Response {
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

    func logIn(_ request: Request) async throws -> Response {
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

    func tokenResponse(_ username: String) async throws -> Response {
        var w = JSONWriter()
        w.beginObject()
        w.key("username")
        w.string(username)
        w.key("token")
        w.string(try await signer.token(for: username))
        w.endObject()
        return jsonResponse(.ok, w.bytes)
    }

    /// The calling user's id, from `Authorization: Token_<jwt>`.
    func caller(_ request: Request) async throws -> Int64 {
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
}
