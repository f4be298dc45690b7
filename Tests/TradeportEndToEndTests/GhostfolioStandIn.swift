import Foundation
import TradeportPrimitives

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for Ghostfolio 3.58's HTTP API, for end-to-end tests of tradeport's push into
/// Ghostfolio: Ghostfolio itself (Node, PostgreSQL, Redis) cannot run on this machine.
///
/// Written from Ghostfolio's public source at `c542997d` (3.58.0), for one user with every
/// permission. It enforces what a pushing client can trip over, in Ghostfolio's order:
/// - the login (`POST /api/v1/auth/anonymous`, security token → opaque token) and the bearer
///   token on every other call (401 otherwise);
/// - the import body as Nest's `ValidationPipe` checks it: the DTOs' whitelist with
///   `forbidNonWhitelisted` (nested members too), currency codes, data sources, ISO 8601 dates
///   after 1970, `fee`/`quantity`/`unitPrice` that are JSON numbers ≥ 0; class-validator's
///   messages, prefixed as Nest flattens them (`activities.0.…`);
/// - the import service: the MANUAL `GF_`/UUID rule (explicit data source only), ISIN → ticker,
///   the body's accounts (existing id skipped, reused by name and currency, else created —
///   before validation, so a later 400 leaves them: no atomicity), reuse of MANUAL profiles by
///   name, `validateActivities` (count limit, enabled data sources, one symbol lookup per
///   `dataSource-symbol` decided by its first occurrence), duplicates against stored activities
///   (account not compared, incoming ones not compared with each other), unknown account ids
///   dropped silently, `dryRun` only for the exact string `true`, a new random UUID symbol for
///   FEE/INTEREST/LIABILITY and MANUAL BUYs without a `GF_`/UUID symbol, responses sorted by date;
/// - the 10 MB body limit, and Nest's 404 for unknown routes (`/api/v1/order` is gone since 3.5).
///
/// Left out: tags and platforms (validated, not stored; activity tag ids are dropped as
/// Ghostfolio drops unknown ones), market data and balance history, values in base currency and
/// exchange rates, the DRAFT tag, redaction, rate limits, data gathering, other users (so no
/// shared `GF_` profiles), subscriptions. The data providers are fakes: Yahoo knows the `yahoo`
/// list (and resolves ISINs sent with YAHOO), CoinGecko any id (in USD), any other provider
/// nothing. ISO 8601 is read as `YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM]`, a date without
/// offset as UTC (Ghostfolio: the server's zone); an ISIN is recognised by its shape, without
/// its check digit.
final class GhostfolioStandIn: @unchecked Sendable {

    /// What the stand-in's Yahoo knows of a security.
    struct Profile: Sendable {
        var symbol: String
        var currency: String
        var name: String
        var isin: String? = nil
    }

    /// An activity as Ghostfolio stored it, after its rewrites of symbol and data source.
    struct StoredActivity: Sendable {
        var id: String
        var accountId: String?
        var comment: String?
        var currency: String
        var dataSource: String
        var date: Date
        var fee: Double
        var quantity: Double
        var symbol: String
        var type: String
        var unitPrice: Double
    }

    /// One `POST /api/v1/import`: a dry run or not, the activities it carried, the answer's status.
    struct ImportCall: Sendable {
        var dryRun: Bool
        var count: Int
        var status: Int
    }

    let port: Int
    /// `http://127.0.0.1:PORT`; the API is under `/api/v1`.
    let base: String
    private let securityToken: String
    private let yahoo: [Profile]
    private let maxActivities: Int?
    private let dataSources: Set<String>
    private let currencies = Set(Locale.commonISOCurrencyCodes)
    /// Opaque and fixed for the stand-in's life (Ghostfolio's JWT is valid for 180 days).
    private let authToken = "standin." + UUID().uuidString.lowercased()
    private let userId = "6d1b3c2a-8f4e-4b7a-9c0d-2e5f7a9b1c3d"
    private let listener: Int32
    private let lock = NSLock()
    // Under `lock`.
    private var rows: [Row] = []
    private var storedAccounts: [Account] = []
    private var manualProfiles: [ManualProfile] = []
    private var calls: [ImportCall] = []
    /// Real imports still to be answered 502 after their work is done (a proxy in front that gave
    /// up waiting): a fault a test asks for.
    private var gatewayFailures = 0
    private var log: [String] = []
    private var connections: Set<Int32> = []
    private var stopped = false

    init(securityToken: String, yahoo: [Profile] = [], maxActivities: Int? = nil, dataSources: [String] = ["COINGECKO", "MANUAL", "YAHOO"]) throws {
        self.securityToken = securityToken
        self.yahoo = yahoo
        self.maxActivities = maxActivities
        self.dataSources = Set(dataSources)
        let (fd, port) = try Loopback.listen()
        self.port = port
        base = "http://127.0.0.1:\(port)"
        listener = fd
        Thread { [self] in acceptLoop() }.start()
    }

    /// The stored activities, in creation order.
    var activities: [StoredActivity] { lock.withLock { rows.map { $0.activity } } }
    var accounts: [(id: String, name: String, currency: String)] {
        lock.withLock { storedAccounts.map { (id: $0.id, name: $0.name, currency: $0.currency) } }
    }
    /// The stored MANUAL asset profiles, in creation order.
    var profiles: [(dataSource: String, symbol: String, name: String, currency: String)] {
        lock.withLock { manualProfiles.map { (dataSource: "MANUAL", symbol: $0.symbol, name: $0.name, currency: $0.currency) } }
    }
    var importCalls: [ImportCall] { lock.withLock { calls } }
    /// Every request answered, as `POST /api/v1/import?dryRun=true -> 201`.
    var requestLog: [String] { lock.withLock { log } }

    /// Closes every connection and stops listening: a client's next connection is refused.
    func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
            shutdown(listener, Int32(SHUT_RDWR))
        }
    }

    deinit { close(listener) }

    // MARK: - Model

    private typealias JSONObject = [String: Any]

    private struct Account {
        var id: String
        var name: String
        var currency: String
        var comment: String?
        var platformId: String?
        var balance: Double
    }

    private struct ManualProfile {
        var symbol: String
        var name: String
        var currency: String
    }

    /// A stored activity with its asset profile's currency and name (the duplicate check compares
    /// the profile's currency too).
    private struct Row {
        var activity: StoredActivity
        var profileCurrency: String
        var profileName: String
    }

    /// An asset profile as `validateActivities` found it.
    private struct Known {
        var currency: String
        var name: String
    }

    /// An activity of an import body, once its DTO passed.
    private struct Incoming {
        var accountId: String?
        var comment: String?
        var currency: String
        var dataSource: String
        var explicitSource: Bool
        var date: Date
        var fee: Double
        var quantity: Double
        var symbol: String
        var type: String
        var unitPrice: Double
        var isDuplicate = false

        /// Ghostfolio's `getAssetProfileIdentifier`.
        var key: String { "\(dataSource)-\(symbol)" }
    }

    private struct BodyProfile {
        var symbol: String
        var currency: String
        var name: String?
    }

    /// An error of the import service: the controller answers 400 `{error, message: [it]}`.
    private struct Refusal: Error { let message: String }

    private struct Request {
        var method: String
        var target: String
        var path: String
        var query: [String: [String]]
        var headers: [String: String]
        var body: [UInt8]
    }

    private struct Reply {
        var status: Int
        var json: [String: Any]

        /// The body of Nest's `HttpException`s.
        static func nest(_ status: Int, _ message: Any, _ error: String) -> Reply {
            Reply(status: status, json: ["message": message, "error": error, "statusCode": status])
        }
    }

    private static let bodyLimit = 10 << 20
    private static let dataSourceNames = [
        "ALPHA_VANTAGE", "COINGECKO", "EOD_HISTORICAL_DATA", "FINANCIAL_MODELING_PREP", "GHOSTFOLIO", "GOOGLE_SHEETS", "MANUAL",
        "RAPID_API", "YAHOO"
    ]
    private static let types = ["BUY", "DIVIDEND", "FEE", "INTEREST", "LIABILITY", "SELL"]
    private static let nonInvestment: Set<String> = ["FEE", "INTEREST", "LIABILITY"]
    private static let derivedCurrencies: Set<String> = ["GBp", "ILA", "ZAc", "USX"]
    private static let activityMembers = [
        "accountId", "assetClass", "assetSubClass", "comment", "currency", "customCurrency", "dataSource", "date", "fee", "quantity",
        "symbol", "tags", "type", "unitPrice", "updateAccountBalance"
    ]
    private static let accountMembers = ["balance", "comment", "currency", "id", "isExcluded", "name", "platformId", "tags"]
    private static let profileMembers = [
        "assetClass", "assetSubClass", "comment", "countries", "currency", "cusip", "dataSource", "figi", "figiComposite",
        "figiShareClass", "holdings", "isActive", "isin", "marketData", "name", "sectors", "symbol", "url"
    ]
    private static let activityQuery: Set<String> = [
        "accounts", "activityTypes", "assetClasses", "dataSource", "range", "skip", "sortColumn", "sortDirection", "symbol", "tags", "take"
    ]

    /// Answers the next `count` real imports 502 once their activities are created, as a proxy
    /// that stopped waiting does: the client cannot tell what was done.
    func failNextImportsAfterStoring(_ count: Int) { lock.withLock { gatewayFailures = count } }

    // MARK: - Routes

    private func respond(to request: Request) -> Reply {
        var count = 0
        let reply = answer(request, activities: &count)
        lock.withLock {
            log.append("\(request.method) \(request.target) -> \(reply.status)")
            if request.method == "POST" && request.path == "/api/v1/import" {
                calls.append(ImportCall(dryRun: request.query["dryRun"] == ["true"], count: count, status: reply.status))
            }
        }
        return reply
    }

    /// Express's body parser runs before routing and guards: the size limit and JSON come first.
    private func answer(_ request: Request, activities count: inout Int) -> Reply {
        guard request.body.count <= Self.bodyLimit else { return .nest(413, "request entity too large", "Payload Too Large") }
        var body: Any? = nil
        if !request.body.isEmpty {
            guard let parsed = try? JSONSerialization.jsonObject(with: Data(request.body)) else {
                return .nest(400, "Unexpected token in JSON body", "Bad Request")
            }
            body = parsed
        }
        count = ((body as? JSONObject)?["activities"] as? [Any])?.count ?? 0
        switch (request.method, request.path) {
        case ("GET", "/api/v1/health"):
            return Reply(status: 200, json: ["status": "OK"])
        case ("POST", "/api/v1/auth/anonymous"):
            guard (body as? JSONObject)?["accessToken"] as? String == securityToken else {
                return Reply(status: 403, json: ["message": "Forbidden", "statusCode": 403])
            }
            return Reply(status: 201, json: ["authToken": authToken])
        case ("GET", "/api/v1/user"), ("GET", "/api/v1/account"), ("POST", "/api/v1/account"), ("GET", "/api/v1/export"),
            ("GET", "/api/v1/activities"), ("POST", "/api/v1/import"):
            guard request.headers["authorization"] == "Bearer \(authToken)" else {
                return Reply(status: 401, json: ["message": "Unauthorized", "statusCode": 401])
            }
            return lock.withLock { authorized(request, body) }
        default:
            return .nest(404, "Cannot \(request.method) \(request.target)", "Not Found")
        }
    }

    /// Under `lock`.
    private func authorized(_ request: Request, _ body: Any?) -> Reply {
        switch (request.method, request.path) {
        case ("GET", "/api/v1/user"):
            return Reply(status: 200, json: ["id": userId, "accounts": storedAccounts.map { accountJSON($0) }, "settings": JSONObject(), "tags": [Any]()])
        case ("GET", "/api/v1/account"):
            let total = storedAccounts.reduce(0.0) { $0 + $1.balance }
            return Reply(
                status: 200,
                json: [
                    "accounts": storedAccounts.map { accountJSON($0) }, "activitiesCount": rows.count, "totalBalanceInBaseCurrency": total,
                    "totalValueInBaseCurrency": total
                ])
        case ("POST", "/api/v1/account"):
            return createAccount(body as? JSONObject ?? [:])
        case ("GET", "/api/v1/export"):
            return export()
        case ("GET", "/api/v1/activities"):
            return listActivities(request.query)
        default:
            return importActivities(body as? JSONObject ?? [:], dryRun: request.query["dryRun"] == ["true"])
        }
    }

    private func accountJSON(_ account: Account) -> JSONObject {
        [
            "activitiesCount": rows.filter { $0.activity.accountId == account.id }.count, "balance": account.balance,
            "comment": Self.orNull(account.comment), "currency": account.currency, "id": account.id, "isExcluded": false,
            "name": account.name, "platformId": Self.orNull(account.platformId), "userId": userId
        ]
    }

    private func createAccount(_ object: JSONObject) -> Reply {
        let messages = Self.accountMessages(object, "", currencies, withBalances: false)
        guard messages.isEmpty else { return .nest(400, messages, "Bad Request") }
        let account = Self.account(object)
        guard !storedAccounts.contains(where: { $0.id == account.id }) else {
            return Reply(status: 500, json: ["message": "Internal server error", "statusCode": 500])  // Prisma's unique-key error
        }
        storedAccounts.append(account)
        return Reply(status: 201, json: accountJSON(account))
    }

    /// The only place a non-admin client reads the server's version.
    private func export() -> Reply {
        let activities = rows.enumerated().sorted { ($0.element.activity.date, $0.offset) < ($1.element.activity.date, $1.offset) }
            .map { Self.json($0.element.activity) }
        let accounts: [JSONObject] = storedAccounts.map {
            [
                "balance": $0.balance, "comment": Self.orNull($0.comment), "currency": $0.currency, "id": $0.id, "isExcluded": false,
                "name": $0.name, "platformId": Self.orNull($0.platformId)
            ]
        }
        return Reply(
            status: 200,
            json: [
                "meta": ["date": Self.iso(Date()), "version": "3.58.0"], "activities": activities, "accounts": accounts,
                "assetProfiles": [Any](), "platforms": [Any](), "tags": [Any]()
            ])
    }

    // MARK: - GET /api/v1/activities

    private func listActivities(_ query: [String: [String]]) -> Reply {
        var messages = query.keys.sorted().filter { !Self.activityQuery.contains($0) }.map { "property \($0) should not exist" }
        func count(_ key: String, _ otherwise: Int) -> Int {
            guard let text = query[key]?.last else { return otherwise }
            guard let n = Int(text), n >= 0 else {
                messages.append("\(key) must not be less than 0")
                return otherwise
            }
            return n
        }
        let skip = count("skip", 0)
        let take = count("take", Int.max)
        let period = Self.range(query["range"]?.last ?? "max", now: Date())
        if period == nil { messages.append("range must be a valid date range") }
        let direction = query["sortDirection"]?.last ?? "asc"
        if direction != "asc" && direction != "desc" { messages.append("sortDirection must be one of the following values: asc, desc") }
        guard messages.isEmpty, let bounds = period else { return .nest(400, messages, "Bad Request") }
        let (low, high) = bounds
        let matching = rows.enumerated().filter { entry in
            Self.passes(entry.element.activity, query) && (low..<high).contains(entry.element.activity.date.timeIntervalSince1970)
        }
        let column = query["sortColumn"]?.last ?? "date"
        let page = matching.sorted { Self.precedes($0, $1, column: column, descending: direction == "desc") }.dropFirst(skip).prefix(take)
        return Reply(status: 200, json: ["activities": page.map { listed($0.element) }, "count": matching.count])
    }

    /// The filters `accounts`, `activityTypes`, `tags` (the stand-in's activities carry none) and
    /// `dataSource` with `symbol` (only both together filter).
    private static func passes(_ activity: StoredActivity, _ query: [String: [String]]) -> Bool {
        func list(_ key: String) -> Set<String>? {
            let items = Set((query[key]?.last ?? "").split(separator: ",").map(String.init))
            return items.isEmpty ? nil : items
        }
        if let accounts = list("accounts"), !accounts.contains(activity.accountId ?? "") { return false }
        if let types = list("activityTypes"), !types.contains(activity.type) { return false }
        if list("tags") != nil { return false }
        if let source = query["dataSource"]?.last, let symbol = query["symbol"]?.last {
            return activity.dataSource == source && activity.symbol == symbol
        }
        return true
    }

    /// Sorted by `sortColumn`, then (unlike Ghostfolio's random ids) by creation.
    private static func precedes(_ x: (offset: Int, element: Row), _ y: (offset: Int, element: Row), column: String, descending: Bool) -> Bool {
        let a = x.element.activity
        let b = y.element.activity
        let order: ComparisonResult
        switch column {
        case "comment": order = compare(a.comment ?? "", b.comment ?? "")
        case "currency": order = compare(a.currency, b.currency)
        case "fee": order = compare(a.fee, b.fee)
        case "quantity": order = compare(a.quantity, b.quantity)
        case "type": order = compare(a.type, b.type)
        case "unitPrice": order = compare(a.unitPrice, b.unitPrice)
        case "createdAt", "updatedAt": order = compare(x.offset, y.offset)
        default: order = compare(a.date, b.date)
        }
        if order == .orderedSame { return x.offset < y.offset }
        return (order == .orderedAscending) != descending
    }

    private static func compare<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
        x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
    }

    private func listed(_ row: Row) -> JSONObject {
        var json = Self.json(row.activity, profile: Known(currency: row.profileCurrency, name: row.profileName))
        json["userId"] = userId
        json["value"] = row.activity.quantity * row.activity.unitPrice
        if let account = storedAccounts.first(where: { $0.id == row.activity.accountId }) {
            json["account"] = accountJSON(account)
            json["accountUserId"] = userId
        } else {
            json["account"] = NSNull()
            json["accountUserId"] = NSNull()
        }
        return json
    }

    /// Ghostfolio's `range` as [from, to) in seconds since 1970 (UTC days); nil when unknown.
    private static func range(_ value: String, now: Date) -> (Double, Double)? {
        let today = floorDiv(Int(now.timeIntervalSince1970.rounded(.down)), 86_400)
        let (y, m, d) = civil(today)
        let start: Int
        switch value {
        case "max": return (-Double.infinity, Double.infinity)
        case "1d": start = today
        case "wtd": start = today - mod(today + 3, 7)  // back to Monday: 1970-01-01 was a Thursday
        case "mtd": start = days(y, m, 1)
        case "ytd": start = days(y, 1, 1)
        case "1y": start = days(y - 1, m, min(d, monthLength(m, y - 1)))
        case "5y": start = days(y - 5, m, min(d, monthLength(m, y - 5)))
        default:
            guard value.utf8.count == 4, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let year = Int(value) else { return nil }
            return (Double(days(year, 1, 1) * 86_400), Double(days(year + 1, 1, 1) * 86_400))
        }
        return (Double(start * 86_400), Double.infinity)
    }

    // MARK: - POST /api/v1/import

    /// Under `lock`.
    private func importActivities(_ body: JSONObject, dryRun: Bool) -> Reply {
        let messages = Self.importMessages(body, currencies)
        guard messages.isEmpty else { return .nest(400, messages, "Bad Request") }
        do {
            let activities = try runImport(body, dryRun: dryRun)
            if !dryRun && gatewayFailures > 0 {
                gatewayFailures -= 1
                return Reply(status: 502, json: ["message": "Bad Gateway", "statusCode": 502])
            }
            return Reply(status: 201, json: ["activities": activities])
        } catch let refusal as Refusal {
            return Reply(status: 400, json: ["error": "Bad Request", "message": [refusal.message]])
        } catch {
            return Reply(status: 500, json: ["message": "Internal server error", "statusCode": 500])
        }
    }

    /// `ImportService.import`, step by step in its order. Nothing is undone when a step throws.
    private func runImport(_ body: JSONObject, dryRun: Bool) throws -> [JSONObject] {
        var profiles = Self.objects(body["assetProfiles"]).map(Self.bodyProfile)
        var activities = Self.objects(body["activities"]).map(Self.incoming)
        try Self.applyManualRule(profiles, &activities)
        resolveISINs(&activities)
        let (mapping, bodyAccounts) = takeAccounts(Self.objects(body["accounts"]).map(Self.account), dryRun: dryRun)
        reuseProfiles(&profiles, &activities)
        let known = try validate(activities, profiles)
        markDuplicates(&activities)
        let accountIds = Set((storedAccounts + bodyAccounts).map { $0.id })
        for i in activities.indices {
            guard let id = activities[i].accountId else { continue }
            let mapped = mapping[id] ?? id
            activities[i].accountId = accountIds.contains(mapped) ? mapped : nil
        }
        let results = dryRun ? activities.map { preview($0, known) } : create(activities, known)
        return results.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map { $0.element.json }
    }

    /// Since 3.42: a MANUAL symbol must be `GF_…` or a UUID, checked only where the data source
    /// was given; a missing one becomes MANUAL (FEE, INTEREST, LIABILITY) or YAHOO, unchecked.
    private static func applyManualRule(_ profiles: [BodyProfile], _ activities: inout [Incoming]) throws {
        let rule = "must be a UUID or start with the prefix \"GF_\" for the data source (\"MANUAL\")"
        for (i, profile) in profiles.enumerated() where !isCustomSymbol(profile.symbol) {
            throw Refusal(message: "assetProfiles.\(i).symbol (\"\(profile.symbol)\") \(rule)")
        }
        for i in activities.indices {
            if !activities[i].explicitSource {
                activities[i].dataSource = nonInvestment.contains(activities[i].type) ? "MANUAL" : "YAHOO"
            } else if activities[i].dataSource == "MANUAL" && !isCustomSymbol(activities[i].symbol) {
                throw Refusal(message: "activities.\(i).symbol (\"\(activities[i].symbol)\") \(rule)")
            }
        }
    }

    /// Since 3.45: an ISIN sent with Yahoo becomes Yahoo's ticker, before the duplicate check.
    private func resolveISINs(_ activities: inout [Incoming]) {
        for i in activities.indices where activities[i].dataSource == "YAHOO" && Self.isISIN(activities[i].symbol) {
            let isin = activities[i].symbol
            if let profile = yahoo.first(where: { $0.isin == isin }) { activities[i].symbol = profile.symbol }
        }
    }

    /// The body's accounts: an id the user has is skipped; one account alike by name and
    /// currency on both sides is reused (its id mapped); the rest is created (a dry run only
    /// returns them, to validate `accountId`s).
    private func takeAccounts(_ incoming: [Account], dryRun: Bool) -> (mapping: [String: String], added: [Account]) {
        var mapping: [String: String] = [:]
        var added: [Account] = []
        for account in incoming where !storedAccounts.contains(where: { $0.id == account.id }) {
            let alike = { (other: Account) in other.name == account.name && other.currency == account.currency }
            let existing = storedAccounts.filter(alike)
            if existing.count == 1 && incoming.filter(alike).count == 1 {
                mapping[account.id] = existing[0].id
            } else if dryRun {
                added.append(account)
            } else {
                storedAccounts.append(account)
            }
        }
        return (mapping, added)
    }

    /// A body profile named like a stored MANUAL profile is that profile: its symbol replaces the
    /// body's, in the activities too.
    private func reuseProfiles(_ profiles: inout [BodyProfile], _ activities: inout [Incoming]) {
        for i in profiles.indices {
            let old = profiles[i].symbol
            guard let name = profiles[i].name, let stored = manualProfiles.first(where: { $0.name == name }), stored.symbol != old else { continue }
            profiles[i].symbol = stored.symbol
            for j in activities.indices where activities[j].dataSource == "MANUAL" && activities[j].symbol == old {
                activities[j].symbol = stored.symbol
            }
        }
    }

    /// `DataProviderService.validateActivities`: the first occurrence of a `dataSource-symbol`
    /// decides whether it needs a lookup, and the lookup decides for all its occurrences.
    private func validate(_ activities: [Incoming], _ profiles: [BodyProfile]) throws -> [String: Known] {
        if let limit = maxActivities, activities.count > limit { throw Refusal(message: "Too many activities (\(limit) at most)") }
        var known: [String: Known] = [:]
        for (i, activity) in activities.enumerated() {
            let path = maxActivities == 1 ? "activity" : "activities.\(i)"
            guard dataSources.contains(activity.dataSource) else {
                throw Refusal(message: "\(path).dataSource (\"\(activity.dataSource)\") is not valid")
            }
            guard known[activity.key] == nil else { continue }
            let inBody = activity.dataSource == "MANUAL" ? profiles.first(where: { $0.symbol == activity.symbol }) : nil
            if Self.isCustomKind(activity) || inBody != nil {
                known[activity.key] = Known(currency: inBody?.currency ?? activity.currency, name: inBody?.name ?? activity.symbol)
            } else if let found = lookUp(activity) {
                known[activity.key] = found
            } else {
                throw Refusal(message: "\(path).symbol (\"\(activity.symbol)\") is not valid for the specified data source (\"\(activity.dataSource)\")")
            }
        }
        return known
    }

    /// The fake data providers.
    private func lookUp(_ activity: Incoming) -> Known? {
        switch activity.dataSource {
        case "YAHOO":
            return yahoo.first(where: { $0.symbol == activity.symbol }).map { Known(currency: $0.currency, name: $0.name) }
        case "COINGECKO":
            return Known(currency: "USD", name: activity.symbol)
        case "MANUAL":
            return manualProfiles.first(where: { $0.symbol == activity.symbol }).map { Known(currency: $0.currency, name: $0.name) }
        default:
            return nil
        }
    }

    /// `extendActivitiesWithErrors`: against stored activities only, as stored (rewritten symbol
    /// and data source), the account not compared.
    private func markDuplicates(_ activities: inout [Incoming]) {
        for i in activities.indices {
            let incoming = activities[i]
            activities[i].isDuplicate = rows.contains { Self.isDuplicate(incoming, of: $0) }
        }
    }

    private static func isDuplicate(_ a: Incoming, of row: Row) -> Bool {
        let s = row.activity
        let sameText = blankToNil(s.comment) == blankToNil(a.comment) && s.type == a.type
        let sameCurrency = s.currency == a.currency || row.profileCurrency == a.currency
        let sameAsset = s.dataSource == a.dataSource && s.symbol == a.symbol
        let sameSecond = s.date.timeIntervalSince1970.rounded(.down) == a.date.timeIntervalSince1970.rounded(.down)
        let sameNumbers = s.fee == a.fee && s.quantity == a.quantity && s.unitPrice == a.unitPrice
        return sameText && sameCurrency && sameAsset && sameSecond && sameNumbers
    }

    /// A dry run's preview: every activity, flagged when a duplicate; a fresh, meaningless id.
    private func preview(_ a: Incoming, _ known: [String: Known]) -> (date: Date, json: JSONObject) {
        let activity = StoredActivity(
            id: UUID().uuidString.lowercased(), accountId: a.accountId, comment: a.comment, currency: a.currency, dataSource: a.dataSource,
            date: a.date, fee: a.fee, quantity: a.quantity, symbol: a.symbol, type: a.type, unitPrice: a.unitPrice)
        var json = Self.json(activity, profile: known[a.key] ?? Known(currency: a.currency, name: a.symbol))
        if a.isDuplicate { json["error"] = ["code": "IS_DUPLICATE"] }
        return (a.date, json)
    }

    /// `createActivity` for each activity that is not a duplicate (duplicates are skipped
    /// silently). FEE/INTEREST/LIABILITY and MANUAL BUYs become MANUAL, under a new random UUID
    /// symbol unless theirs is `GF_…`/UUID (the text becomes the new profile's name).
    private func create(_ activities: [Incoming], _ known: [String: Known]) -> [(date: Date, json: JSONObject)] {
        var created: [(date: Date, json: JSONObject)] = []
        for a in activities where !a.isDuplicate {
            var profile = known[a.key] ?? Known(currency: a.currency, name: a.symbol)
            var dataSource = a.dataSource
            var symbol = a.symbol
            if Self.isCustomKind(a) {
                dataSource = "MANUAL"
                if !Self.isCustomSymbol(symbol) { symbol = UUID().uuidString.lowercased() }
            }
            if dataSource == "MANUAL" {
                if let stored = manualProfiles.first(where: { $0.symbol == symbol }) {
                    profile = Known(currency: stored.currency, name: stored.name)
                } else {
                    manualProfiles.append(ManualProfile(symbol: symbol, name: profile.name, currency: profile.currency))
                }
            }
            let activity = StoredActivity(
                id: UUID().uuidString.lowercased(), accountId: a.accountId, comment: a.comment, currency: a.currency, dataSource: dataSource,
                date: a.date, fee: a.fee, quantity: a.quantity, symbol: symbol, type: a.type, unitPrice: a.unitPrice)
            rows.append(Row(activity: activity, profileCurrency: profile.currency, profileName: profile.name))
            created.append((a.date, Self.json(activity, profile: profile)))
        }
        return created
    }

    /// Types whose profile Ghostfolio makes up itself: no lookup, MANUAL when stored.
    private static func isCustomKind(_ a: Incoming) -> Bool {
        nonInvestment.contains(a.type) || (a.dataSource == "MANUAL" && a.type == "BUY")
    }

    /// `isValidCustomAssetProfileSymbol`: `GF_…` (case-sensitive) or a UUID of any version.
    private static func isCustomSymbol(_ symbol: String) -> Bool {
        symbol.hasPrefix("GF_") || UUID(uuidString: symbol) != nil
    }

    private static func isISIN(_ symbol: String) -> Bool {
        let c = Array(symbol.utf8)
        let upper = { (b: UInt8) in b >= 65 && b <= 90 }
        let digit = { (b: UInt8) in b >= 48 && b <= 57 }
        guard c.count == 12, upper(c[0]), upper(c[1]), digit(c[11]) else { return false }
        return c[2..<11].allSatisfy { upper($0) || digit($0) }
    }

    /// An activity in the import's shape, plus its asset profile when known.
    private static func json(_ a: StoredActivity, profile: Known? = nil) -> JSONObject {
        var json: JSONObject = [
            "accountId": orNull(a.accountId), "comment": orNull(a.comment), "currency": a.currency, "dataSource": a.dataSource,
            "date": iso(a.date), "fee": a.fee, "id": a.id, "quantity": a.quantity, "symbol": a.symbol, "tags": [Any](), "type": a.type,
            "unitPrice": a.unitPrice
        ]
        if let profile {
            json["assetProfile"] = ["currency": profile.currency, "dataSource": a.dataSource, "name": profile.name, "symbol": a.symbol]
        }
        return json
    }

    // MARK: - Import body

    private static func objects(_ value: Any?) -> [JSONObject] { (value as? [Any] ?? []).compactMap { $0 as? JSONObject } }

    private static func bodyProfile(_ o: JSONObject) -> BodyProfile {
        BodyProfile(symbol: o["symbol"] as? String ?? "", currency: o["currency"] as? String ?? "", name: o["name"] as? String)
    }

    private static func account(_ o: JSONObject) -> Account {
        Account(
            id: o["id"] as? String ?? UUID().uuidString.lowercased(), name: o["name"] as? String ?? "", currency: o["currency"] as? String ?? "",
            comment: trimmed(o["comment"]), platformId: o["platformId"] as? String, balance: number(o["balance"]) ?? 0)
    }

    private static func incoming(_ o: JSONObject) -> Incoming {
        Incoming(
            accountId: o["accountId"] as? String, comment: trimmed(o["comment"]), currency: o["currency"] as? String ?? "",
            dataSource: o["dataSource"] as? String ?? "", explicitSource: o["dataSource"] is String,
            date: parseDate(o["date"] as? String ?? "") ?? Date(timeIntervalSince1970: 0), fee: number(o["fee"]) ?? 0,
            quantity: number(o["quantity"]) ?? 0, symbol: o["symbol"] as? String ?? "", type: o["type"] as? String ?? "",
            unitPrice: number(o["unitPrice"]) ?? 0)
    }

    /// The DTOs' `Transform(trim)` on comments.
    private static func trimmed(_ value: Any?) -> String? {
        (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `(comment || null)`: an empty comment is none.
    private static func blankToNil(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }

    private static func orNull(_ text: String?) -> Any {
        if let text { return text }
        return NSNull()
    }

    /// A JSON number's value, nil for anything else (a boolean or a string included).
    private static func number(_ value: Any?) -> Double? {
        guard let value, !(value is String), !isBoolean(value), let n = value as? NSNumber else { return nil }
        return n.doubleValue.isFinite ? n.doubleValue : nil
    }

    /// Whether a JSONSerialization value is a JSON `true`/`false`. On Linux both booleans and
    /// numbers come back as `NSNumber`, and `is Bool` can hold for a number 0 or 1; a boolean is
    /// Foundation's boolean singleton.
    private static func isBoolean(_ value: Any?) -> Bool {
        guard let value, !(value is String), !(value is NSNull), let n = value as? NSNumber else { return false }
        return n === NSNumber(value: true) || n === NSNumber(value: false) || String(describing: type(of: n)).contains("Boolean")
    }

    // MARK: - DTO validation

    private static func importMessages(_ body: JSONObject, _ currencies: Set<String>) -> [String] {
        var c = Check(body, prefix: "", members: ["accounts", "activities", "assetProfiles", "platforms", "tags"], currencies: currencies)
        c.nested("accounts", optional: true) { accountMessages($0, $1, currencies, withBalances: true) }
        c.nested("activities", optional: false) { activityMessages($0, $1, currencies) }
        c.nested("assetProfiles", optional: true) { profileMessages($0, $1, currencies) }
        c.nested("platforms", optional: true) { namedMessages($0, $1, currencies, members: ["id", "name", "url"]) }
        c.nested("tags", optional: true) { namedMessages($0, $1, currencies, members: ["id", "name", "userId"]) }
        return c.messages
    }

    /// `CreateOrderDto`.
    private static func activityMessages(_ o: JSONObject, _ prefix: String, _ currencies: Set<String>) -> [String] {
        var c = Check(o, prefix: prefix, members: activityMembers, currencies: currencies)
        c.string("accountId", optional: true)
        c.string("comment", optional: true)
        c.currency("currency")
        c.currency("customCurrency", optional: true)
        c.oneOf("dataSource", dataSourceNames, optional: true)
        c.date("date")
        c.number("fee", notNegative: true)
        c.number("quantity", notNegative: true)
        c.string("symbol")
        c.strings("tags")
        c.oneOf("type", types)
        c.number("unitPrice", notNegative: true)
        c.boolean("updateAccountBalance")
        return c.messages
    }

    /// `CreateAccountDto`, and `CreateAccountWithBalancesDto` in an import.
    private static func accountMessages(_ o: JSONObject, _ prefix: String, _ currencies: Set<String>, withBalances: Bool) -> [String] {
        var c = Check(o, prefix: prefix, members: accountMembers + (withBalances ? ["balances"] : []), currencies: currencies)
        c.number("balance", optional: true)
        if withBalances { c.array("balances") }
        c.string("comment", optional: true)
        c.currency("currency")
        c.string("id", optional: true)
        c.boolean("isExcluded")
        c.string("name")
        if !(o["platformId"] is NSNull) { c.string("platformId") }  // `ValidateIf(value !== null)`: the member must be there
        c.strings("tags")
        return c.messages
    }

    /// `CreateAssetProfileWithMarketDataDto`.
    private static func profileMessages(_ o: JSONObject, _ prefix: String, _ currencies: Set<String>) -> [String] {
        var c = Check(o, prefix: prefix, members: profileMembers, currencies: currencies)
        for key in ["comment", "cusip", "figi", "figiComposite", "figiShareClass", "isin", "name", "url"] { c.string(key, optional: true) }
        for key in ["countries", "holdings", "marketData", "sectors"] { c.array(key) }
        c.currency("currency")
        c.oneOf("dataSource", ["MANUAL"], message: "dataSource must be 'MANUAL'")
        c.boolean("isActive")
        c.string("symbol")
        return c.messages
    }

    /// `CreatePlatformDto` and `CreateTagDto`, shallowly.
    private static func namedMessages(_ o: JSONObject, _ prefix: String, _ currencies: Set<String>, members: [String]) -> [String] {
        var c = Check(o, prefix: prefix, members: members, currencies: currencies)
        c.string("id", optional: true)
        c.string("name")
        return c.messages
    }

    /// class-validator's checks on one object, its messages as Nest's `ValidationPipe` flattens
    /// them: a nested member's message after its path (`activities.0.`).
    private struct Check {
        let object: [String: Any]
        let prefix: String
        let currencies: Set<String>
        var messages: [String] = []

        /// `whitelist` with `forbidNonWhitelisted`.
        init(_ object: [String: Any], prefix: String, members: [String], currencies: Set<String>) {
            self.object = object
            self.prefix = prefix
            self.currencies = currencies
            for key in object.keys.sorted() where !members.contains(key) { messages.append("\(prefix)property \(key) should not exist") }
        }

        /// `IsOptional`: null or missing skips the member's other checks.
        func absent(_ key: String) -> Bool { object[key] == nil || object[key] is NSNull }

        mutating func fail(_ message: String) { messages.append(prefix + message) }

        mutating func string(_ key: String, optional: Bool = false) {
            if optional && absent(key) { return }
            if !(object[key] is String) { fail("\(key) must be a string") }
        }

        mutating func boolean(_ key: String) {
            if absent(key) { return }
            if !GhostfolioStandIn.isBoolean(object[key]) { fail("\(key) must be a boolean value") }
        }

        /// `IsNumber` (and `Min(0)`): a string or a boolean fails both.
        mutating func number(_ key: String, optional: Bool = false, notNegative: Bool = false) {
            if optional && absent(key) { return }
            let value = GhostfolioStandIn.number(object[key])
            if value == nil { fail("\(key) must be a number conforming to the specified constraints") }
            let atLeastZero = value.map { $0 >= 0 } ?? false
            if notNegative && !atLeastZero { fail("\(key) must not be less than 0") }
        }

        mutating func oneOf(_ key: String, _ values: [String], optional: Bool = false, message: String? = nil) {
            if optional && absent(key) { return }
            if let text = object[key] as? String, values.contains(text) { return }
            fail(message ?? "\(key) must be one of the following values: \(values.joined(separator: ", "))")
        }

        /// `IsCurrencyCode`: upper-case ISO 4217, or a derived currency (`GBp`, `ILA`, `ZAc`, `USX`).
        mutating func currency(_ key: String, optional: Bool = false) {
            if optional && absent(key) { return }
            if let code = object[key] as? String,
                GhostfolioStandIn.derivedCurrencies.contains(code) || (code == code.uppercased() && currencies.contains(code))
            {
                return
            }
            fail("\(key) must be a valid ISO4217 currency code")
        }

        /// `IsISO8601` and `IsAfter1970Constraint` (whose message names `date` whatever the member).
        mutating func date(_ key: String) {
            let date = (object[key] as? String).flatMap { GhostfolioStandIn.parseDate($0) }
            if date == nil { fail("\(key) must be a valid ISO 8601 date string") }
            let after1970 = date.map { $0.timeIntervalSince1970 > 0 } ?? false
            if !after1970 { fail("date must be after 1970") }
        }

        @discardableResult
        mutating func array(_ key: String, optional: Bool = true) -> [Any]? {
            if optional && absent(key) { return nil }
            guard let items = object[key] as? [Any] else {
                fail("\(key) must be an array")
                return nil
            }
            return items
        }

        /// `ArrayUnique`, `IsArray`, `IsString({each: true})`, optional.
        mutating func strings(_ key: String) {
            guard let items = array(key) else { return }
            let texts = items.compactMap { $0 as? String }
            if texts.count != items.count { fail("each value in \(key) must be a string") }
            if Set(texts).count != texts.count { fail("All \(key)'s elements must be unique") }
        }

        /// `ValidateNested({each: true})` with `IsArray`.
        mutating func nested(_ key: String, optional: Bool, _ check: (_ element: [String: Any], _ prefix: String) -> [String]) {
            guard let items = array(key, optional: optional) else { return }
            for (i, item) in items.enumerated() {
                guard let element = item as? [String: Any] else {
                    fail("nested property \(key) must be either object or array")
                    continue
                }
                messages += check(element, "\(prefix)\(key).\(i).")
            }
        }
    }

    // MARK: - Dates

    /// `YYYY-MM-DD[THH:MM[:SS[.fraction]]][Z|±HH[:]MM]`; no offset reads as UTC.
    static func parseDate(_ text: String) -> Date? {
        let c = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= c.count else { return nil }
            var value = 0
            for k in i..<(i + n) {
                guard c[k] >= 48, c[k] <= 57 else { return nil }
                value = value * 10 + Int(c[k] - 48)
            }
            i += n
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard i < c.count, c[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), skip(45), let month = digits(2), skip(45), let day = digits(2), (1...12).contains(month), day >= 1,
            day <= monthLength(month, year)
        else { return nil }
        var seconds = Double(days(year, month, day) * 86_400)
        if i == c.count { return Date(timeIntervalSince1970: seconds) }
        guard skip(84), let hour = digits(2), skip(58), let minute = digits(2), hour < 24, minute < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if skip(58) {
            guard let second = digits(2), second < 60 else { return nil }
            seconds += Double(second)
            if skip(46) {
                let start = i
                while i < c.count, c[i] >= 48, c[i] <= 57 { i += 1 }
                guard i > start, let fraction = Double("0." + String(decoding: c[start..<i], as: UTF8.self)) else { return nil }
                seconds += fraction
            }
        }
        if !skip(90), i < c.count, c[i] == 43 || c[i] == 45 {
            let sign: Double = c[i] == 43 ? 1 : -1
            i += 1
            guard let h = digits(2), h < 24 else { return nil }
            _ = skip(58)
            guard let m = digits(2), m < 60 else { return nil }
            seconds -= sign * Double(h * 3600 + m * 60)
        }
        return i == c.count ? Date(timeIntervalSince1970: seconds) : nil
    }

    /// As JavaScript's `toISOString`: `2024-01-05T10:00:00.000Z`.
    private static func iso(_ date: Date) -> String {
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded())
        let (y, m, d) = civil(floorDiv(millis, 86_400_000))
        let t = mod(millis, 86_400_000)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(t / 3_600_000, 2)):\(pad(t / 60_000 % 60, 2)):\(pad(t / 1000 % 60, 2)).\(pad(t % 1000, 3))Z"
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { (a - mod(a, b)) / b }
    private static func mod(_ a: Int, _ b: Int) -> Int { ((a % b) + b) % b }

    private static func monthLength(_ month: Int, _ year: Int) -> Int { CivilCalendar.daysIn(month: month, year: year) }

    /// Days since 1970-01-01 of a civil date.
    private static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        Int(CivilCalendar.days(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    /// The civil date of a day since 1970-01-01.
    private static func civil(_ dayNumber: Int) -> (Int, Int, Int) {
        let (year, month, day) = CivilCalendar.date(days: Int64(dayNumber))
        return (Int(year), Int(month), Int(day))
    }

    // MARK: - HTTP/1.1 over POSIX sockets

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let kept: Bool = lock.withLock {
                guard !stopped else { return false }
                connections.insert(client)
                return true
            }
            guard kept else {
                close(client)
                continue
            }
            Thread { [self] in serve(client) }.start()
        }
    }

    /// Answers a connection's requests one after another until the client closes it:
    /// AsyncHTTPClient keeps connections alive.
    private func serve(_ fd: Int32) {
        var pending: [UInt8] = []
        while let request = Self.readRequest(from: fd, pending: &pending) {
            let reply = respond(to: request)
            guard Self.writeAll(Self.encode(reply), to: fd), request.headers["connection"]?.lowercased() != "close" else { break }
        }
        lock.withLock { _ = connections.remove(fd) }
        close(fd)
    }

    private static func readRequest(from fd: Int32, pending: inout [UInt8]) -> Request? {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd = find(separator, in: pending, from: 0)
        while headEnd == nil {
            let scanned = max(0, pending.count - 3)
            guard pending.count < 1 << 20, fill(&pending, from: fd) else { return nil }
            headEnd = find(separator, in: pending, from: scanned)
        }
        guard let end = headEnd else { return nil }
        var lines = String(decoding: pending[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        pending.removeFirst(end + 4)
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let chunked = headers["transfer-encoding"]?.lowercased().contains("chunked") == true
        let payload: [UInt8]?
        if chunked {
            payload = readChunked(from: fd, pending: &pending)
        } else {
            payload = take(Int(headers["content-length"] ?? "0") ?? -1, from: fd, pending: &pending)
        }
        guard let body = payload else { return nil }
        let target = String(requestLine[1])
        let (path, query) = parseTarget(target)
        return Request(method: String(requestLine[0]), target: target, path: path, query: query, headers: headers, body: body)
    }

    /// Reads more bytes of the connection; false at its end.
    private static func fill(_ pending: inout [UInt8], from fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            pending.append(contentsOf: buffer[..<n])
            return true
        }
    }

    private static func take(_ count: Int, from fd: Int32, pending: inout [UInt8]) -> [UInt8]? {
        guard count >= 0 else { return nil }
        while pending.count < count {
            guard fill(&pending, from: fd) else { return nil }
        }
        let bytes = Array(pending[..<count])
        pending.removeFirst(count)
        return bytes
    }

    private static func readChunked(from fd: Int32, pending: inout [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        while let line = readLine(from: fd, pending: &pending) {
            let field = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard let size = Int(field, radix: 16) else { return nil }
            if size == 0 {
                while let trailer = readLine(from: fd, pending: &pending) {
                    if trailer.isEmpty { return body }
                }
                return nil
            }
            guard let chunk = take(size + 2, from: fd, pending: &pending) else { return nil }
            body += chunk.dropLast(2)
        }
        return nil
    }

    private static func readLine(from fd: Int32, pending: inout [UInt8]) -> String? {
        var found = find([13, 10], in: pending, from: 0)
        while found == nil {
            guard fill(&pending, from: fd) else { return nil }
            found = find([13, 10], in: pending, from: 0)
        }
        guard let end = found else { return nil }
        let line = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end + 2)
        return line
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + pattern.count <= bytes.count {
            if bytes[i] == pattern[0] && bytes[i..<(i + pattern.count)].elementsEqual(pattern) { return i }
            i += 1
        }
        return nil
    }

    /// The path and the decoded query; a repeated parameter keeps every value (Express makes it an
    /// array, so `?dryRun=true&dryRun=true` is no dry run).
    private static func parseTarget(_ target: String) -> (path: String, query: [String: [String]]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: [String]] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[decode(kv[0]), default: []].append(kv.count == 2 ? decode(kv[1]) : "")
            }
        }
        return (String(parts.first ?? ""), query)
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    private static func encode(_ reply: Reply) -> [UInt8] {
        let body = (try? JSONSerialization.data(withJSONObject: reply.json, options: [.sortedKeys])) ?? Data("{}".utf8)
        let reasons = [
            200: "OK", 201: "Created", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 413: "Payload Too Large"
        ]
        let head =
            "HTTP/1.1 \(reply.status) \(reasons[reply.status] ?? "Internal Server Error")\r\n"
            + "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: keep-alive\r\n\r\n"
        return Array(head.utf8) + Array(body)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool { Loopback.send(bytes, to: fd) }
}
