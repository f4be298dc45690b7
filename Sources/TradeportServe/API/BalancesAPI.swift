import Foundation
import Hummingbird
import HummingbirdBcrypt
import TradeportBalances
import TradeportCore
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

    /// `contextPath`: normalized (`/bcv`, or empty for the root). The routes are registered per
    /// resource: readiness here, then users (`BalancesAPI+Users`), portfolios
    /// (`BalancesAPI+Portfolios`), trades and transactions (`BalancesAPI+Operations`).
    func register(on router: Router<BasicRequestContext>, contextPath: String) {
        let api = router.group(RouterPath(contextPath))

        // Whether the server can serve: 200 when its database answers, 503 when not.
        api.get("ready") { request, _ in
            guard let health, health.isDown else { return jsonResponse(.ok, Array(#"{"database":"up"}"#.utf8)) }
            return Self.unavailable(path: request.uri.path)
        }

        registerUsers(on: api)
        registerPortfolios(on: api)
        registerOperations(on: api, TradeRecord.self)
        registerOperations(on: api, TransactionRecord.self)
    }

    /// Runs a handler, answering its refusals (and anything unexpected, as a 500) as JSON.
    /// The answer to `request`: `body`'s, or its error's. Over a database that can go away
    /// (`health`), a request that comes while it does not answer is answered 503 at once, and one
    /// waiting on it when it stops answering is answered 503 within about a second (the work is
    /// cancelled and left to end: every write is one transaction and idempotent by value id, so a
    /// client that sends again stores nothing twice).
    func respond(_ request: Request, _ body: @escaping @Sendable () async throws -> Response) async -> Response {
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

    static func answer(_ path: String, health: DatabaseHealth?, _ body: @Sendable () async throws -> Response) async -> Response {
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
