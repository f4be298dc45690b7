import Foundation
import Hummingbird
import HummingbirdBcrypt
import TradeportBalances
import TradeportCore
import TradeportPrimitives

/// The portfolios' routes: list, find by name or id, create, rename, delete.
extension BalancesAPI {
    func registerPortfolios(on api: RouterGroup<BasicRequestContext>) {
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
    }

    func portfolioResponse(_ p: PortfolioRecord, _ status: HTTPResponse.Status) -> Response {
        var w = JSONWriter()
        p.write(to: &w)
        return jsonResponse(status, w.bytes)
    }
}
