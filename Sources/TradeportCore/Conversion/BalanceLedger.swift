/// The balance changes of every operation, kept compactly so that at the end they can be replayed
/// in time order to find where an asset's balance first goes below zero (`negative-balance`).
///
/// Per operation: its time and where it came from; per asset it moves: the portfolio-asset pair
/// and the signed amount (an Int64 mantissa and a scale, or an entry in `wide` when it needs more).
struct BalanceLedger {
    private struct Account: Hashable {
        let portfolio: Int  // index into `portfolioNames`
        let asset: AssetCode
    }

    private var accounts: [Account] = []
    private var accountIndex: [Account: UInt32] = [:]

    private var times: [Int64] = []
    private var firstEvent: [UInt32] = []
    private var rows: [UInt32] = []
    /// Where each run of operations from one origin starts: (first operation, index into `origins`).
    private var originRuns: [(start: Int, origin: UInt32)] = []
    private var origins: [SourceLocation] = []
    private var lastOrigin: (location: SourceLocation, index: UInt32)?

    private var eventAccount: [UInt32] = []
    private var eventMantissa: [Int64] = []
    private var eventScale: [UInt8] = []
    private var wide: [Int: ExactDecimal] = [:]
    /// Accounts whose balance stopped being followed (a value beyond 38 digits), and where.
    private var untracked: [(op: Int, account: UInt32)] = []
    private static let wideMarker: UInt8 = 0xFF

    mutating func reserve(_ operations: Int) {
        times.reserveCapacity(operations)
        firstEvent.reserveCapacity(operations)
        rows.reserveCapacity(operations)
        eventAccount.reserveCapacity(operations * 2)
        eventMantissa.reserveCapacity(operations * 2)
        eventScale.reserveCapacity(operations * 2)
    }

    /// Recently used accounts by portfolio number and packed asset code, so that the common lookup
    /// compares integers.
    private var packedAccounts: [(portfolio: Int, asset: UInt64, index: UInt32)] = []
    private var portfolioNames: [String] = []
    private var lastPortfolio: (name: String, number: Int)?

    private mutating func portfolioNumber(_ name: String) -> Int {
        if let last = lastPortfolio, last.name == name { return last.number }
        let number = portfolioNames.firstIndex(of: name) ?? portfolioNames.count
        if number == portfolioNames.count { portfolioNames.append(name) }
        lastPortfolio = (name, number)
        return number
    }

    private mutating func account(_ portfolio: Int, _ asset: AssetCode) -> UInt32 {
        let word = asset.packedKey
        if let word {
            for entry in packedAccounts where entry.asset == word && entry.portfolio == portfolio { return entry.index }
        }
        let key = Account(portfolio: portfolio, asset: asset)
        let index: UInt32
        if let existing = accountIndex[key] {
            index = existing
        } else {
            index = UInt32(accounts.count)
            accounts.append(key)
            accountIndex[key] = index
        }
        if let word, packedAccounts.count < 64 { packedAccounts.append((portfolio, word, index)) }
        return index
    }

    private mutating func originIndex(_ location: SourceLocation) -> UInt32 {
        if let last = lastOrigin, last.location.path == location.path, last.location.sheet == location.sheet { return last.index }
        let index: UInt32
        if let found = origins.firstIndex(where: { $0.path == location.path && $0.sheet == location.sheet }) {
            index = UInt32(found)
        } else {
            index = UInt32(origins.count)
            origins.append(location.atRow(0))
        }
        // Kept until the origin changes: rows of one input do not touch it again.
        lastOrigin = (origins[Int(index)], index)
        return index
    }

    /// Records what `operation` does to the balances of `portfolio`.
    mutating func record(_ operation: PortfolioOperation, portfolio name: String) {
        let portfolio = portfolioNumber(name)
        times.append(operation.time.secondsSinceEpoch)
        firstEvent.append(UInt32(truncatingIfNeeded: eventAccount.count))
        let o = originIndex(operation.source)
        if originRuns.last?.origin != o { originRuns.append((times.count - 1, o)) }
        rows.append(UInt32(truncatingIfNeeded: operation.source.row))
        let op = times.count - 1
        operation.forEachBalanceChange { asset, change, _ in
            if let change {
                add(portfolio, asset, change)
            } else {
                // quantity × price beyond 38 digits: this account's balance cannot be followed.
                untracked.append((op, account(portfolio, asset)))
            }
        }
    }

    private mutating func add(_ portfolio: Int, _ asset: AssetCode, _ delta: ExactDecimal) {
        let acct = account(portfolio, asset)
        let start = Int(firstEvent[firstEvent.count - 1])
        // One event per asset and operation: a fee in the base merges with the quantity.
        var existing: Int?
        for e in start..<eventAccount.count where eventAccount[e] == acct { existing = e }
        if let e = existing, let merged = self.value(e).adding(delta) {
            store(merged, at: e)
            return
        }
        eventAccount.append(acct)
        eventMantissa.append(0)
        eventScale.append(0)
        store(delta, at: eventAccount.count - 1)
    }

    private mutating func store(_ value: ExactDecimal, at e: Int) {
        if let m = Int64(exactly: value.mantissa) {
            if eventScale[e] == Self.wideMarker { wide[e] = nil }
            eventMantissa[e] = m
            eventScale[e] = UInt8(value.scale)
        } else {
            eventScale[e] = Self.wideMarker
            wide[e] = value
        }
    }

    private func value(_ e: Int) -> ExactDecimal {
        if eventScale[e] == Self.wideMarker { return wide[e]! }
        return ExactDecimal(normalizedMantissa: Int128(eventMantissa[e]), scale: Int(eventScale[e]))
    }

    /// The origin (input and sheet) of operation `op`, from the runs recorded.
    private func origin(ofOperation op: Int) -> UInt32 {
        var low = 0, high = originRuns.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if originRuns[mid].start <= op { low = mid } else { high = mid - 1 }
        }
        return originRuns[low].origin
    }

    /// The operations in time order, ties in the order they were recorded. Inputs are usually
    /// already in order, or in reverse order (DSX writes newest first): both are found in one pass.
    private func timeOrder() -> [Int32] {
        let n = times.count
        var ascending = true
        var descending = true
        for i in 1..<max(n, 1) {
            if times[i] < times[i - 1] { ascending = false }
            if times[i] > times[i - 1] { descending = false }
            if !ascending && !descending { break }
        }
        if ascending { return Array(0..<Int32(n)) }
        if descending {
            // Reverse, keeping each run of equal times in recorded order.
            var order: [Int32] = []
            order.reserveCapacity(n)
            var end = n
            while end > 0 {
                var start = end - 1
                while start > 0 && times[start - 1] == times[end - 1] { start -= 1 }
                order.append(contentsOf: Int32(start)..<Int32(end))
                end = start
            }
            return order
        }
        return (0..<Int32(n)).sorted { times[Int($0)] != times[Int($1)] ? times[Int($0)] < times[Int($1)] : $0 < $1 }
    }

    /// One `negative-balance` warning per portfolio and asset whose balance goes below zero,
    /// at the first operation that takes it there; and one `balance-untracked` warning per
    /// account whose balance went beyond 38 digits and could no longer be followed.
    func negativeBalanceWarnings() -> [ConversionWarning] { replay().warnings }

    /// Replays every operation in time order: the warnings (see `negativeBalanceWarnings`) and
    /// what each portfolio holds of each asset at the end (nil where it went beyond 38 digits),
    /// by portfolio then asset.
    func replay() -> (warnings: [ConversionWarning], balances: [PortfolioBalance]) {
        guard !times.isEmpty else { return ([], []) }
        var balances = [ExactDecimal?](repeating: .zero, count: accounts.count)
        var warned = [Bool](repeating: false, count: accounts.count)
        var found: [(op: Int, account: Int, balance: ExactDecimal?)] = []
        for item in untracked where balances[Int(item.account)] != nil {
            balances[Int(item.account)] = nil
            found.append((item.op, Int(item.account), nil))
        }
        for op32 in timeOrder() {
            let op = Int(op32)
            let end = op + 1 < firstEvent.count ? Int(firstEvent[op + 1]) : eventAccount.count
            for e in Int(firstEvent[op])..<end {
                let a = Int(eventAccount[e])
                guard let current = balances[a] else { continue }
                // A balance beyond 38 digits stops being tracked rather than being rounded.
                guard let next = current.adding(value(e)) else {
                    balances[a] = nil
                    found.append((op, a, nil))
                    continue
                }
                balances[a] = next
                if next.isNegative, !warned[a] {
                    warned[a] = true
                    found.append((op, a, next))
                }
            }
        }
        let finals = accounts.indices.map { a in
            PortfolioBalance(portfolio: portfolioNames[accounts[a].portfolio], asset: accounts[a].asset, amount: balances[a])
        }.sorted { ($0.portfolio, $0.asset) < ($1.portfolio, $1.asset) }
        let warnings = found.map { item in
            let account = accounts[item.account]
            let portfolio = portfolioNames[account.portfolio]
            let place = origins[Int(origin(ofOperation: item.op))]
            let time = Timestamp(secondsSinceEpoch: times[item.op])
            let source = place.atRow(Int(rows[item.op]))
            guard let balance = item.balance else {
                return ConversionWarning(
                    code: "balance-untracked",
                    message: "balance of \(account.asset) in portfolio \(portfolio) goes beyond 38 digits at \(time); it is not checked from there on",
                    source: source)
            }
            return ConversionWarning(
                code: "negative-balance",
                message: "balance of \(account.asset) in portfolio \(portfolio) goes below zero, to \(balance), at \(time): the history loaded is incomplete, or a row is wrong",
                source: source)
        }
        return (warnings, finals)
    }
}

/// What a portfolio holds of one asset after every operation a conversion read: the sum of what
/// each moved (a trade's quantity and its value, fees, transactions, movements), from zero.
public struct PortfolioBalance: Sendable, Hashable {
    public var portfolio: String
    public var asset: AssetCode
    /// Nil when the balance went beyond 38 digits and was no longer followed.
    public var amount: ExactDecimal?

    public init(portfolio: String, asset: AssetCode, amount: ExactDecimal?) {
        self.portfolio = portfolio
        self.asset = asset
        self.amount = amount
    }
}
