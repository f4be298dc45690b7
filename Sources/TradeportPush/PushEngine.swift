import TradeportBalances

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
    /// The portfolio being loaded: what is settled so far, kept here so that a run stopped
    /// part-way still reports what it did.
    private var current = PortfolioOutcome(name: "")
    /// Operations of the current portfolio settled (sent or found present), for the progress.
    private var settled = 0
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

    /// Loads every portfolio in turn. A refusal (4xx) or an unreachable server stops the run:
    /// the outcomes so far are returned with the failure.
    public func push(_ loads: [PortfolioLoad]) async -> (outcomes: [PortfolioOutcome], failure: ServerFailure?) {
        var outcomes: [PortfolioOutcome] = []
        for load in loads {
            current = PortfolioOutcome(name: load.name)
            current.failed = load.refused.count
            settled = 0
            do {
                try await push(load)
                outcomes.append(current)
            } catch {
                let failure = error as? ServerFailure
                    ?? ServerFailure(kind: .unreachable, call: "push", status: nil, message: "\(error)")
                // What was not seen settled failed here (a re-run finds what did arrive).
                current.failed += load.operationCount - current.sent - current.alreadyPresent
                current.stopped = failure.description
                outcomes.append(current)
                // The portfolios not reached count as failed.
                for rest in loads.dropFirst(outcomes.count) {
                    var o = PortfolioOutcome(name: rest.name)
                    o.failed = rest.operationCount + rest.refused.count
                    o.stopped = "not reached"
                    outcomes.append(o)
                }
                return (outcomes, failure)
            }
        }
        return (outcomes, nil)
    }

    private func push(_ load: PortfolioLoad) async throws {
        let portfolio: PortfolioRecord
        let name = load.name
        if let held = await prefetched.removeValue(forKey: name)?.value {
            try await pushRecords(load.trades, portfolio: held.portfolio.id, total: load.operationCount, held: held.trades)
            try await pushRecords(load.transactions, portfolio: held.portfolio.id, total: load.operationCount, held: held.transactions)
            return
        }
        if let found = try await authorized({ try await $0.portfolio(named: name) }) {
            portfolio = found
        } else if options.createPortfolios {
            portfolio = try await authorized { try await $0.createPortfolio(named: name) }
        } else {
            throw ServerFailure(kind: .refused, call: "GET /portfolios/by_name", status: 404,
                                message: "the server has no portfolio named '\(load.name)' (and --no-create was given)")
        }
        try await pushRecords(load.trades, portfolio: portfolio.id, total: load.operationCount)
        try await pushRecords(load.transactions, portfolio: portfolio.id, total: load.operationCount)
    }

    /// Counts what a request settled and shows the progress.
    private func settle(sent: Int, present: Int, total: Int, everyTime: Bool = true) async {
        current.sent += sent
        current.alreadyPresent += present
        settled += sent + present
        if everyTime || settled % 50 == 0 || settled == total {
            await progress?.update(portfolio: current.name, settled: settled, of: total)
        }
    }

    /// `held`: what the portfolio holds of this kind, when already read.
    private func pushRecords<R: OperationRecord>(_ records: [R], portfolio: Int64, total: Int, held known: [String?]? = nil) async throws {
        guard !records.isEmpty else { return }
        let held: [String?]
        if let known {
            held = known
        } else {
            held = try await authorized { try await $0.valueIds(R.self, portfolio: portfolio) }
        }
        let lacking = MissingRecords(records, held: held)
        current.heldTwice += lacking.heldTwice
        await settle(sent: 0, present: lacking.present, total: total)
        var rest = lacking.missing[...]
        // The first batch tells whether the server has the endpoint.
        if batches != false, !rest.isEmpty {
            let first = Array(rest.prefix(options.batchSize))
            if let answer = try await authorized({ try await $0.postBatchCounts(first, portfolio: portfolio) }) {
                batches = true
                try Self.check(answer, covers: first.count, R.self)
                rest = rest.dropFirst(first.count)
                await settle(sent: answer.created, present: answer.existing, total: total)
            } else {
                batches = false
            }
        }
        if batches == true {
            let chunks = stride(from: rest.startIndex, to: rest.endIndex, by: options.batchSize).map {
                Array(rest[$0..<min($0 + options.batchSize, rest.endIndex)])
            }
            try await inParallel(chunks) { chunk in
                guard let answer = try await self.authorized({ try await $0.postBatchCounts(chunk, portfolio: portfolio) }) else {
                    throw ServerFailure(kind: .refused, call: "POST /\(R.resource)/batch", status: 404, message: "the batch endpoint went away")
                }
                try Self.check(answer, covers: chunk.count, R.self)
                return (answer.created, answer.existing)
            } onResult: { created, existing in
                await self.settle(sent: created, present: existing, total: total)
            }
        } else {
            try await inParallel(Array(rest)) { record in
                // A 401 means the post was not stored: posting again after a new login is safe.
                try await self.authorized { try await Self.postOnce(record, portfolio: portfolio, client: $0) }
            } onResult: { created, existing in
                await self.settle(sent: created, present: existing, total: total, everyTime: false)
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
            throw ServerFailure(kind: .unreadableAnswer, call: "POST /\(R.resource)/batch", status: 200,
                                message: "\(count) records sent, \(answer.created) created and \(answer.existing) existing answered")
        }
    }

    /// Posts one record so that it is stored once even against a server that stores duplicates:
    /// after a failed attempt (the post may have arrived), it looks before posting again.
    private static func postOnce<R: OperationRecord>(_ record: R, portfolio: Int64, client: BalancesClient) async throws -> (Int, Int) {
        try await client.retry.run { attempt in
            if attempt > 1, let valueId = record.valueId,
               let held = try? await client.valueIds(R.self, portfolio: portfolio), held.contains(valueId) {
                return (1, 0)
            }
            switch try await client.post(record, portfolio: portfolio) {
            case .created: return (1, 0)
            case .alreadyPresent: return (0, 1)
            }
        } retrying: { ($0 as? ServerFailure)?.kind == .unreachable }
    }

    /// Runs `work` on every item with at most `options.concurrency` in flight, handing each
    /// result to `onResult` here; the first error cancels the rest and is thrown.
    private func inParallel<Item: Sendable>(
        _ items: [Item], _ work: @escaping @Sendable (Item) async throws -> (Int, Int),
        onResult: (Int, Int) async -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            var next = 0
            let limit = max(options.concurrency, 1)
            while next < items.count && next < limit {
                let item = items[next]
                group.addTask { try await work(item) }
                next += 1
            }
            while let (a, b) = try await group.next() {
                await onResult(a, b)
                if next < items.count {
                    let item = items[next]
                    group.addTask { try await work(item) }
                    next += 1
                }
            }
        }
    }
}
