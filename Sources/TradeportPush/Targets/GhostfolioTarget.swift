import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats
import TradeportPrimitives

/// A Ghostfolio instance as a push target (`push --to ghostfolio`): each portfolio is the
/// user's account of its name (created with a stable id when missing), and its operations become
/// activities as `--to ghostfolio` writes them (`GhostfolioActivities`), each with `tradeport
/// <operation id>` as its comment.
///
/// What the instance holds is recognised twice over, so that a re-run sends nothing and a
/// watched folder can feed it safely:
/// - by comment: the user's export (`GET /api/v1/export`) lists every activity's comment; an
///   operation whose comment is there is not sent again, even if the user edited its numbers;
/// - by Ghostfolio's own rule: every batch goes first to the import's dry run
///   (`?dryRun=true`), which flags as `IS_DUPLICATE` what Ghostfolio would skip (same comment,
///   currency, data source, date, fee, quantity, symbol, type and unit price), and only the
///   rest is imported. The dry run also finds what would fail the whole request (a symbol the
///   data source does not know) before anything is written: Ghostfolio's import is not atomic.
///
/// Batches hold `batchSize` activities at most (25 fit ghostfol.io's Basic plan), and fewer when
/// the instance answers `Too many activities (N at most)` (then N) or that the body is over its
/// 10 MB limit (413: then half).
public struct GhostfolioTarget: PushTarget {
    public struct Options: Sendable {
        public var batchSize: Int
        /// Run only the dry run: what would be imported and what is there already, nothing written.
        public var dryRun: Bool
        /// The symbol map and the data source of unmapped securities.
        public var write: WriteOptions

        public init(batchSize: Int = 100, dryRun: Bool = false, write: WriteOptions = WriteOptions()) {
            self.batchSize = batchSize
            self.dryRun = dryRun
            self.write = write
        }
    }

    public let client: GhostfolioClient
    public let options: Options

    public init(client: GhostfolioClient, options: Options) {
        self.client = client
        self.options = options
    }

    /// What the conversion made for the instance, per portfolio.
    struct Converted: Sendable {
        var activities: [String: [GhostfolioActivity]] = [:]
        var profiles: [String: GhostfolioAssetProfile] = [:]
        var currencies: [String: [String: Int]] = [:]
        var notes: [String] = []
        var conversion = PushConversion()
        var inputFailure: PushPlanError?
    }

    public func push(_ plan: PushPlan, rejected: (@Sendable (RejectedRow) -> Void)? = nil) async -> PushResult {
        let user: String
        var accounts: [String: String]
        let held: Set<String>
        do {
            user = try await client.userId()
            accounts = try await client.accounts()
            held = try await client.comments()
        } catch {
            return PushResult(outcomes: [], failure: Self.failure(error, "reading what the instance holds"))
        }
        let known = accounts
        let write = options.write
        let converted = await offload { () -> Converted in
            var result = Converted()
            let box = ActivityCollector(GhostfolioActivities(options: write, scope: user))
            do throws(PushPlanError) {
                result.conversion = try plan.operations(rejected: rejected) { operation, portfolios in
                    for name in portfolios {
                        // The account of the portfolio's name, else the one tradeport made for it
                        // (whatever the user renamed it to), else a new one.
                        let account = known[name] ?? GhostfolioActivities.accountId(name)
                        box.activities[name, default: []] += box.mapping.activities(operation, account: account)
                    }
                }
            } catch {
                result.inputFailure = error
                result.conversion = error.partial ?? PushConversion()
            }
            result.activities = box.activities
            result.profiles = box.mapping.profiles
            result.currencies = box.mapping.currencies
            result.notes = box.mapping.notes
            return result
        }
        var outcomes: [PortfolioOutcome] = []
        let names = converted.conversion.portfolios.isEmpty ? converted.activities.keys.sorted() : converted.conversion.portfolios
        for name in names {
            var outcome = PortfolioOutcome(name: name)
            let activities = converted.activities[name] ?? []
            do {
                var newAccount: (id: String, currency: String)?
                let madeBefore = accounts["\u{0}id:" + GhostfolioActivities.accountId(name)] != nil
                if accounts[name] == nil, !madeBefore, !activities.isEmpty {
                    let id = GhostfolioActivities.accountId(name)
                    let currency = GhostfolioActivities.mostUsed(converted.currencies[id] ?? [:]) ?? "USD"
                    if options.dryRun {
                        newAccount = (id, currency)
                    } else {
                        try await client.createAccount(id: id, name: name, currency: currency)
                        accounts[name] = id
                    }
                }
                let pending = activities.filter { !held.contains($0.comment) }
                outcome.alreadyPresent = activities.count - pending.count
                try await load(pending, name: name, profiles: converted.profiles, newAccount: newAccount, into: &outcome)
            } catch {
                outcomes.append(outcome)
                return PushResult(
                    outcomes: outcomes, failure: Self.failure(error, "pushing \(name)"), inputFailure: converted.inputFailure,
                    conversion: converted.conversion, notes: converted.notes)
            }
            outcomes.append(outcome)
        }
        return PushResult(outcomes: outcomes, inputFailure: converted.inputFailure, conversion: converted.conversion, notes: converted.notes)
    }

    /// Sends `pending` in batches: each through the dry run first, then what it did not flag.
    private func load(
        _ pending: [GhostfolioActivity], name: String, profiles: [String: GhostfolioAssetProfile], newAccount: (id: String, currency: String)?,
        into outcome: inout PortfolioOutcome
    ) async throws {
        var size = max(options.batchSize, 1)
        var start = 0
        while start < pending.count {
            let batch = Array(pending[start..<min(start + size, pending.count)])
            let body = Self.body(batch, profiles: profiles, account: newAccount.map { ($0.id, name, $0.currency) })
            switch try await client.importActivities(body: body, dryRun: true) {
            case .failure(let refusal):
                if let most = Self.tooMany(refusal.message), most < batch.count, most > 0 {
                    size = most
                    continue
                }
                // Over the instance's 10 MB body limit: halves until it fits.
                if refusal.status == 413, batch.count > 1 {
                    size = batch.count / 2
                    continue
                }
                throw ServerFailure(kind: .refused, call: "POST /api/v1/import?dryRun=true", status: refusal.status, message: refusal.message)
            case .success(let dry):
                let fresh = batch.filter { !dry.duplicateComments.contains($0.comment) }
                outcome.alreadyPresent += batch.count - fresh.count
                if options.dryRun || fresh.isEmpty {
                    if options.dryRun { outcome.sent += fresh.count }
                } else {
                    let answer: Result<GhostfolioClient.ImportAnswer, GhostfolioClient.Refusal>
                    do {
                        answer = try await client.importActivities(body: Self.body(fresh, profiles: profiles, account: nil), dryRun: false)
                    } catch let failure as ServerFailure where failure.kind == .unreachable {
                        // The import may still be running there: wait until what the instance
                        // holds stops changing, then go on with what it lacks.
                        let held = try await settledComments()
                        let landed = fresh.filter { held.contains($0.comment) }.count
                        outcome.sent += landed
                        if landed < fresh.count { throw failure }
                        start += batch.count
                        continue
                    }
                    switch answer {
                    case .failure(let refusal):
                        throw ServerFailure(kind: .refused, call: "POST /api/v1/import", status: refusal.status, message: refusal.message)
                    case .success(let created):
                        // What Ghostfolio skipped since the dry run was added by someone else meanwhile.
                        outcome.sent += created.count
                        outcome.alreadyPresent += fresh.count - created.count
                    }
                }
            }
            start += batch.count
        }
    }

    /// The comments the instance holds once two reads, 2 s apart or more, agree (up to a minute):
    /// what an import cut off from its answer left there.
    private func settledComments() async throws -> Set<String> {
        var last = try await client.comments()
        for _ in 0..<30 {
            try await Task.sleep(for: .seconds(2))
            let now = try await client.comments()
            if now == last { return now }
            last = now
        }
        return last
    }

    /// `Too many activities (25 at most)` → 25.
    static func tooMany(_ message: String) -> Int? {
        guard let range = message.range(of: #"Too many activities \([0-9]+ at most\)"#, options: .regularExpression) else { return nil }
        return Int(message[range].filter(\.isNumber))
    }

    /// The import's body: the activities, the custom profiles they name, and the account they go
    /// to when it is new (a dry run only: a real run creates it first).
    static func body(
        _ activities: [GhostfolioActivity], profiles: [String: GhostfolioAssetProfile], account: (id: String, name: String, currency: String)?
    )
        -> [UInt8]
    {
        var out = OutputBuffer(capacity: 320 * activities.count + 256)
        CanonicalJSON.appendRaw("{\"activities\": [", to: &out)
        for (i, activity) in activities.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            activity.appendJSON(to: &out)
        }
        CanonicalJSON.appendRaw("]", to: &out)
        if let account {
            CanonicalJSON.appendRaw(", \"accounts\": [{\"currency\": ", to: &out)
            CanonicalJSON.appendString(account.currency, to: &out)
            CanonicalJSON.appendRaw(", \"id\": ", to: &out)
            CanonicalJSON.appendString(account.id, to: &out)
            CanonicalJSON.appendRaw(", \"name\": ", to: &out)
            CanonicalJSON.appendString(account.name, to: &out)
            CanonicalJSON.appendRaw(", \"platformId\": null}]", to: &out)
        }
        let used = Set(activities.filter { $0.dataSource == "MANUAL" }.map(\.symbol)).compactMap { profiles[$0] }.sorted { $0.symbol < $1.symbol }
        if !used.isEmpty {
            CanonicalJSON.appendRaw(", \"assetProfiles\": [", to: &out)
            for (i, profile) in used.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                profile.appendJSON(to: &out)
            }
            CanonicalJSON.appendRaw("]", to: &out)
        }
        CanonicalJSON.appendRaw("}", to: &out)
        return Array(out.bytes)
    }

    static func failure(_ error: any Error, _ doing: String) -> ServerFailure {
        if let failure = error as? ServerFailure { return failure }
        return ServerFailure(kind: .unreachable, call: doing, status: nil, message: "\(error)")
    }
}

/// The activities a conversion made, per portfolio (filled on the conversion's thread, read after).
private final class ActivityCollector: @unchecked Sendable {
    var activities: [String: [GhostfolioActivity]] = [:]
    var mapping: GhostfolioActivities

    init(_ mapping: GhostfolioActivities) { self.mapping = mapping }
}
