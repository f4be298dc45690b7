import TradeportBalances
import TradeportCore
import TradeportPrimitives

/// Loads portfolios into a server idempotently: reads what each portfolio holds, sends only the
/// value ids it lacks, in batches when the server has them and one by one when it does not.
public actor PushEngine {
    private var client: BalancesClient
    /// Logs in again for a new token, when push has a username and password.
    private let logIn: (@Sendable () async throws -> String)?
    private let options: PushOptions
    private let progress: (any PushProgress)?
    /// Whether the server has the batch endpoint: unknown until the first batch is tried.
    private var batches: Bool?
    /// What portfolios hold, read ahead by `prefetch` while their inputs were still converting.
    private var prefetched: [String: Task<Held?, Never>] = [:]

    /// A portfolio and the value ids it holds of each kind.
    private struct Held: Sendable {
        var portfolio: PortfolioRecord
        var trades: [String?]
        var transactions: [String?]
    }

    /// `logIn`, when given, is how to get a new token when the server refuses one as expired
    /// (tokens live an hour; a long load can outlive one).
    public init(
        client: BalancesClient, options: PushOptions, progress: (any PushProgress)? = nil,
        logIn: (@Sendable () async throws -> String)? = nil
    ) {
        self.client = client
        self.logIn = logIn
        self.options = options
        self.progress = progress
    }

    /// Starts reading the portfolios named `names` and what they hold, so that it is at hand when
    /// `push` comes to them (the caller converts the inputs meanwhile). Reading only: a portfolio
    /// that does not exist is left to `push`, and so is any failure (`push` reads again, and
    /// reports it). Another client's additions in between are answered as existing by a server
    /// with batches, as they would be between push's own read and its posts.
    public func prefetch(_ names: [String]) {
        for name in names where prefetched[name] == nil {
            prefetched[name] = Task {
                do {
                    guard let portfolio = try await self.authorized({ try await $0.portfolio(named: name) }) else { return nil }
                    async let trades = self.authorized { try await $0.valueIds(TradeRecord.self, portfolio: portfolio.id) }
                    async let transactions = self.authorized { try await $0.valueIds(TransactionRecord.self, portfolio: portfolio.id) }
                    return Held(portfolio: portfolio, trades: try await trades, transactions: try await transactions)
                } catch {
                    return nil
                }
            }
        }
    }

    /// A portfolio being loaded: its id and, per kind, how many stored records hold each value id
    /// (nil until read).
    private struct Target {
        var id: Int64
        var trades: [String: Int]?
        var transactions: [String: Int]?
    }

    private var targets: [String: Target] = [:]
    /// Per portfolio: what is settled so far, and how many records the conversion handed over.
    private var outcomes: [String: PortfolioOutcome] = [:]
    private var received: [String: Int] = [:]
    /// Portfolios in the order their first records came.
    private var order: [String] = []
    /// What stopped the sending: the rest is received and counted as failed.
    private var failure: ServerFailure?
    private var inFlight = 0

    /// Loads what `feed` hands over as the conversion makes it: per batch, the portfolio is found
    /// (created when missing) and read once, the records whose value id it holds are counted as
    /// present, and the rest are sent, at most `concurrency` requests in flight. A refusal (4xx)
    /// or an unreachable server stops the sending; the conversion still runs to its end, and what
    /// it hands over after counts as failed. At the end, every portfolio the conversion loads
    /// exists on the server (when nothing stopped it), even one with nothing to send. An engine
    /// pushes one feed: what it counts is the run's.
    public func push(_ feed: PushFeed) async -> PushResult {
        var inputFailure: PushPlanError?
        await withTaskGroup(of: Result<(String, Int, Int), any Error>.self) { group in
            while true {
                let batch: PushBatch?
                do {
                    batch = try await feed.next()
                } catch {
                    inputFailure = error as? PushPlanError ?? PushPlanError(.input, "\(error)")
                    break
                }
                guard let batch else { break }
                let name = batch.portfolio
                if received[name] == nil {
                    order.append(name)
                    outcomes[name] = PortfolioOutcome(name: name)
                }
                received[name, default: 0] += batch.count
                guard failure == nil else { continue }
                do {
                    let requests: [Request]
                    switch batch.records {
                    case .trades(let records): requests = try await self.requests(records, TradeRecord.self, portfolio: name, held: \.trades)
                    case .transactions(let records):
                        requests = try await self.requests(records, TransactionRecord.self, portfolio: name, held: \.transactions)
                    }
                    for request in requests {
                        while inFlight >= max(options.concurrency, 1), let done = await group.next() { await finish(done) }
                        guard failure == nil else { break }
                        inFlight += 1
                        group.addTask {
                            do { return .success(try await request()) } catch { return .failure(error) }
                        }
                    }
                } catch {
                    stop(error)
                }
                if failure != nil { group.cancelAll() }
            }
            while let done = await group.next() { await finish(done) }
        }
        // What the conversion counted: all of it, or up to where an input failed.
        let conversion = inputFailure == nil ? feed.conversion : inputFailure?.partial
        if inputFailure == nil {
            if failure == nil, let conversion {
                do {
                    for name in conversion.portfolios where targets[name] == nil { _ = try await target(name) }
                } catch {
                    stop(error)
                }
            }
        }
        let names = (conversion?.portfolios ?? []) + order.filter { !(conversion?.portfolios.contains($0) ?? false) }
        let result = names.map { name in
            var o = outcomes[name] ?? PortfolioOutcome(name: name)
            let unsettled = (received[name] ?? 0) - o.sent - o.alreadyPresent
            o.failed = unsettled + (conversion?.tallies[name]?.refused.count ?? 0)
            if unsettled > 0 {
                o.stopped = failure?.description ?? inputFailure.map { _ in "its inputs could not be read to the end" }
            }
            return o
        }
        return PushResult(outcomes: result, failure: failure, inputFailure: inputFailure, conversion: conversion)
    }

    /// A request to make (a batch, or one record for a server without batches): what it settled
    /// in which portfolio, created and already there.
    private typealias Request = @Sendable () async throws -> (String, Int, Int)

    private func stop(_ error: any Error) {
        guard failure == nil else { return }
        failure = error as? ServerFailure ?? ServerFailure(kind: .unreachable, call: "push", status: nil, message: "\(error)")
    }

    /// Counts a finished request: what it settled, or its failure.
    private func finish(_ done: Result<(String, Int, Int), any Error>) async {
        inFlight -= 1
        switch done {
        case .success(let (name, created, existing)): await settle(name, sent: created, present: existing)
        case .failure(let error): stop(error)
        }
    }

    /// The portfolio `name` on the server: read ahead, found, or created.
    private func target(_ name: String) async throws -> Target {
        if let known = targets[name] { return known }
        let target: Target
        if let held = await prefetched.removeValue(forKey: name)?.value {
            target = Target(
                id: held.portfolio.id, trades: MissingRecords<TradeRecord>.counts(held.trades),
                transactions: MissingRecords<TransactionRecord>.counts(held.transactions))
        } else if let found = try await authorized({ try await $0.portfolio(named: name) }) {
            target = Target(id: found.id)
        } else if options.createPortfolios {
            // Made now: it holds nothing yet.
            let created = try await authorized { try await $0.createPortfolio(named: name) }
            target = Target(id: created.id, trades: [:], transactions: [:])
        } else {
            throw ServerFailure(
                kind: .refused, call: "GET /portfolios/by_name", status: 404,
                message: "the server has no portfolio named '\(name)' (and --no-create was given)")
        }
        targets[name] = target
        return target
    }

    /// Counts what a request settled and shows the progress.
    private func settle(_ name: String, sent: Int, present: Int) async {
        outcomes[name, default: PortfolioOutcome(name: name)].sent += sent
        outcomes[name, default: PortfolioOutcome(name: name)].alreadyPresent += present
        if let o = outcomes[name] { await progress?.update(portfolio: name, settled: o.sent + o.alreadyPresent, of: nil) }
    }

    /// The requests that send what portfolio `name` lacks of `records` (those whose value id it
    /// holds are counted as present). The first batch ever is sent here, to learn whether the
    /// server has the batch endpoint.
    /// `held`: where the target keeps the value ids it holds of this kind.
    private func requests<R: OperationRecord>(
        _ records: EncodedRecords, _: R.Type, portfolio name: String,
        held: WritableKeyPath<Target, [String: Int]?>
    ) async throws -> [Request] {
        let target = try await target(name)
        let counts: [String: Int]
        if let known = target[keyPath: held] {
            counts = known
        } else {
            let id = target.id
            counts = MissingRecords<R>.counts(try await authorized { try await $0.valueIds(R.self, portfolio: id) })
            targets[name]?[keyPath: held] = counts
        }
        let lacking = MissingEncoded(records, counts: counts)
        outcomes[name, default: PortfolioOutcome(name: name)].heldTwice += lacking.heldTwice
        if lacking.present > 0 { await settle(name, sent: 0, present: lacking.present) }
        var rest = lacking.missing[...]
        guard !rest.isEmpty else { return [] }
        let portfolio = target.id
        if batches == nil {
            // The first batch tells whether the server has the endpoint.
            let first = records.array(rest.prefix(options.batchSize))
            let firstCount = min(rest.count, options.batchSize)
            if let answer = try await authorized({ try await $0.postBatchCounts(body: first, R.self, portfolio: portfolio) }) {
                batches = true
                try Self.check(answer, covers: firstCount, R.self)
                rest = rest.dropFirst(firstCount)
                await settle(name, sent: answer.created, present: answer.existing)
            } else {
                batches = false
            }
        }
        if batches == true {
            return stride(from: rest.startIndex, to: rest.endIndex, by: options.batchSize).map { start in
                let positions = rest[start..<min(start + options.batchSize, rest.endIndex)]
                let chunk = records.array(positions)
                let count = positions.count
                return {
                    guard let answer = try await self.authorized({ try await $0.postBatchCounts(body: chunk, R.self, portfolio: portfolio) }) else {
                        throw ServerFailure(kind: .refused, call: "POST /\(R.resource)/batch", status: 404, message: "the batch endpoint went away")
                    }
                    try Self.check(answer, covers: count, R.self)
                    return (name, answer.created, answer.existing)
                }
            }
        }
        return rest.map { i in
            let object = Array(records.object(i))
            let valueId = records.valueIds[i]
            return {
                // A 401 means the post was not stored: posting again after a new login is safe.
                let (created, existing) = try await self.authorized {
                    try await Self.postOnce(object, valueId: valueId, R.self, portfolio: portfolio, client: $0)
                }
                return (name, created, existing)
            }
        }
    }

    /// Runs a call with the current token. When the server answers 401 and push can log in, it
    /// logs in again (once for the calls that saw the same token refused) and repeats the call.
    private func authorized<T: Sendable>(_ call: @Sendable (BalancesClient) async throws -> T) async throws -> T {
        let used = client
        do {
            return try await call(used)
        } catch let failure as ServerFailure where failure.kind == .refused && failure.status == 401 {
            guard let logIn else { throw failure }
            if client === used { client = used.with(token: try await logIn()) }
            return try await call(client)
        }
    }

    /// A batch's answer accounts for every record sent, or the server is not one to trust.
    private static func check<R: OperationRecord>(_ answer: BatchCounts, covers count: Int, _: R.Type) throws {
        guard answer.created + answer.existing == count else {
            throw ServerFailure(
                kind: .unreadableAnswer, call: "POST /\(R.resource)/batch", status: 200,
                message: "\(count) records sent, \(answer.created) created and \(answer.existing) existing answered")
        }
    }

    /// Posts one record so that it is stored once even against a server that stores duplicates:
    /// after a failed attempt (the post may have arrived), it looks before posting again.
    /// `object`: the record's JSON object; `valueId`: its value id.
    private static func postOnce<R: OperationRecord>(
        _ object: [UInt8], valueId: String?, _: R.Type, portfolio: Int64,
        client: BalancesClient
    ) async throws -> (Int, Int) {
        try await client.retry.run { attempt in
            if attempt > 1, let valueId,
                let held = try? await client.valueIds(R.self, portfolio: portfolio), held.contains(valueId)
            {
                return (1, 0)
            }
            switch try await client.post(object: object, R.self, portfolio: portfolio) {
            case .created: return (1, 0)
            case .alreadyPresent: return (0, 1)
            }
        } retrying: {
            ($0 as? ServerFailure)?.kind == .unreachable
        }
    }
}

/// The hand-over from a push's conversion, run on a thread of its own, to the engine sending what
/// it makes: batches of records as they fill, then the conversion's end.
public final class PushFeed: @unchecked Sendable {
    /// A few batches wait at most: the conversion waits for the sending, and memory stays flat.
    private let handoff = Handoff<PushBatch, PushPlanError>(capacity: 4)
    // Written before the hand-over is closed, read after `next()` answered its end.
    private var result: PushConversion?

    public init() {}

    /// Runs `plan`'s conversion into the feed, to its end or until the engine stops listening.
    /// Synchronous and long: run it off the concurrency pool (`offload`).
    public func produce(_ plan: PushPlan, batchSize: Int, rejected: (@Sendable (RejectedRow) -> Void)? = nil) {
        do {
            let handoff = self.handoff
            result = try plan.run(batchSize: batchSize, rejected: rejected) { handoff.send($0) }
            handoff.close()
        } catch {
            handoff.finish(error)
        }
    }

    /// The next batch; nil at the end. Throws what stopped the conversion part-way.
    public func next() async throws(PushPlanError) -> PushBatch? {
        try await offload { () throws(PushPlanError) -> PushBatch? in try self.handoff.receive() }
    }

    /// The conversion's end, once `next()` has answered nil.
    public var conversion: PushConversion? { result }

    /// Stops listening: the conversion stops at its next batch.
    public func cancel() { handoff.cancel() }
}

/// What a push did: per portfolio, and what stopped it, if anything.
public struct PushResult: Sendable {
    public var outcomes: [PortfolioOutcome]
    /// The server's refusal, or the server out of reach.
    public var failure: ServerFailure?
    /// What stopped the conversion part-way (what was sent before it stays).
    public var inputFailure: PushPlanError?
    /// What the conversion counted: all of it, or up to where an input failed part-way.
    public var conversion: PushConversion?
    /// What the target says besides (what it cannot hold, securities without a symbol).
    public var notes: [String] = []

    public init(
        outcomes: [PortfolioOutcome], failure: ServerFailure? = nil, inputFailure: PushPlanError? = nil, conversion: PushConversion? = nil, notes: [String] = []
    ) {
        self.outcomes = outcomes
        self.failure = failure
        self.inputFailure = inputFailure
        self.conversion = conversion
        self.notes = notes
    }
}
