import Foundation
import Hummingbird
import HummingbirdBcrypt
import TradeportBalances
import TradeportCore
import TradeportPrimitives

/// What the routes read from a request: its caller's portfolio, its path's id, its body as bytes
/// or JSON, its preferences.
extension BalancesAPI {
    func requestPortfolio(_ request: Request) async throws -> Int64 {
        let owner = try await caller(request)
        guard let text = request.uri.queryParameters["portfolioId"] else { throw APIError.badRequest("portfolioId: missing") }
        guard let id = Int64(text) else { throw APIError.badRequest("portfolioId: expected an integer, found '\(text)'") }
        return try await ownedPortfolio(id, owner: owner).id
    }

    /// The caller's portfolio; another user's is "not found", as a missing one.
    func ownedPortfolio(_ id: Int64, owner: Int64) async throws -> PortfolioRecord {
        guard let p = try await store.portfolio(id: id, owner: owner) else { throw APIError.notFound("portfolio \(id) not found") }
        return p
    }

    func pathId(_ context: BasicRequestContext) throws -> Int64 {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text) else { throw APIError.badRequest("expected a numeric id, found '\(text)'") }
        return id
    }

    func bytes(_ request: Request) async throws -> [UInt8] {
        var request = request
        do {
            return Array(try await request.collectBody(upTo: Self.bodyLimit).readableBytesView)
        } catch {
            throw APIError(status: .contentTooLarge, message: "the body is larger than \(Self.bodyLimit) bytes")
        }
    }

    /// A batch's records read through the JSON tree: every fault named, with its item.
    func batchRecords<R: StoredRecord>(_ body: [UInt8], _: R.Type) throws -> [R] {
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
                throw APIError.badRequest("item \(i): \(error.description)")
            }
        }
        return records
    }

    func json(_ request: Request) async throws -> JSONValue {
        try json(try await bytes(request))
    }

    func json(_ body: [UInt8]) throws -> JSONValue {
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
}
