/// The balance changes of every operation, kept compactly so that at the end they can be replayed
/// in time order to find where an asset's balance first goes below zero (`negative-balance`).
///
/// Each operation is one record in a log of bytes (`OperationLog`): its time and row as the
/// difference from the operation before, then per asset it moves the account (portfolio and asset,
/// numbered) and the signed amount (mantissa and scale), all as variable-length integers: about 12
/// bytes an operation of two assets, against the 50 that arrays of fixed-width fields took. Its
/// blocks but the last go to a scratch file as they fill, so that memory does not grow with the
/// input. The log is read forwards when the operations came in time order, backwards (block by
/// block) when they came in reverse order (DSX writes newest first). An input in neither order
/// that is a few runs in time order (a report's deals, then each currency's cash operations) is
/// merged, run by run, one block of each in memory at a time; only one in more runs than that is
/// sorted, by an index of its times made at the end, with every block read back.
struct BalanceLedger {
    private struct Account: Hashable {
        let portfolio: Int  // index into `portfolioNames`
        let asset: AssetCode
    }

    private var accounts: [Account] = []
    private var accountIndex: [Account: UInt32] = [:]

    private var log: OperationLog
    private var count = 0
    /// Whether the times recorded so far never went down, or never went up.
    private var ascending = true
    private var descending = true
    private var lastTime: Int64 = 0
    /// The first operation of each run in time order after the first, while there are at most
    /// `mergedRuns` runs (nil past that: the replay sorts).
    private var runStarts: [Int]? = []
    /// The most runs the replay merges (each reads a block of the log at a time).
    static let mergedRuns = 32

    /// Where each run of operations from one origin starts: (first operation, index into `origins`).
    private var originRuns: [(start: Int, origin: UInt32)] = []
    private var origins: [SourceLocation] = []
    private var lastOrigin: (location: SourceLocation, index: UInt32)?
    /// The earliest time of each origin's operations (`Int64.max` for one with none yet).
    private var originFirstTime: [Int64] = []

    /// The opening balances sources print (`state`): per account, each origin's sum. The replay
    /// starts an account from the opening of the origin whose operations begin first; the
    /// balances it reports still start from zero (what the operations did).
    private var openings: [Account: [Opening]] = [:]

    /// An origin's opening balance of an account, and the first row that prints it.
    private struct Opening {
        var origin: UInt32
        var amount: ExactDecimal
        var row: Int
    }

    /// Accounts whose balance stopped being followed (a value beyond 38 digits), and where.
    private var untracked: [(op: Int, time: Int64, row: Int, account: UInt32)] = []
    /// This operation's changes, merged by account, until it is written to the log.
    private var pending: [(account: UInt32, amount: ExactDecimal)] = []

    /// `blockSize`: the log's blocks (smaller in tests, so that a few operations cross blocks).
    init(blockSize: Int = OperationLog.blockSize) {
        log = OperationLog(blockSize: blockSize)
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
            originFirstTime.append(.max)
        }
        // Kept until the origin changes: rows of one input do not touch it again.
        lastOrigin = (origins[Int(index)], index)
        return index
    }

    /// Records what `operation` does to the balances of `portfolio`.
    mutating func record(_ operation: PortfolioOperation, portfolio name: String) {
        record(time: operation.time.secondsSinceEpoch, origin: operation.source, row: operation.source.row, portfolio: name) { body in
            operation.forEachBalanceChange { asset, change, _ in body(asset, change) }
        }
    }

    /// Records what an operation a reader prepared does to the balances of its portfolio.
    mutating func record(_ operation: PreparedOperation) {
        record(time: operation.time, origin: operation.store.origin, row: operation.row, portfolio: operation.portfolio) { body in
            operation.forEachBalanceChange(body)
        }
    }

    /// Records an operation at `time`, read at `row` of `origin`, by each change `changes` gives.
    @inline(__always)
    private mutating func record(
        time: Int64, origin: SourceLocation, row: Int, portfolio name: String,
        changes: ((AssetCode, ExactDecimal?) -> Void) -> Void
    ) {
        let portfolio = portfolioNumber(name)
        let op = count
        count += 1
        if op > 0 {
            if time < lastTime {
                ascending = false
                if runStarts != nil {
                    runStarts!.append(op)
                    if runStarts!.count >= Self.mergedRuns { runStarts = nil }
                }
            }
            if time > lastTime { descending = false }
        }
        lastTime = time
        let o = originIndex(origin)
        if originRuns.last?.origin != o { originRuns.append((op, o)) }
        if time < originFirstTime[Int(o)] { originFirstTime[Int(o)] = time }
        // One change per asset and operation: a fee in the base merges with the quantity.
        pending.removeAll(keepingCapacity: true)
        changes { asset, change in
            let acct = account(portfolio, asset)
            guard let change else {
                // quantity × price beyond 38 digits: this account's balance cannot be followed.
                untracked.append((op, time, row, acct))
                return
            }
            if let e = pending.lastIndex(where: { $0.account == acct }), let merged = pending[e].amount.adding(change) {
                pending[e].amount = merged
            } else {
                pending.append((acct, change))
            }
        }
        log.append(time: time, row: row, changes: pending)
    }

    /// An opening balance `balance`'s source prints, for the account of `portfolio` (the one the
    /// source's operations go to). A source that prints an asset over several rows (a security
    /// held in two places) adds them up.
    mutating func state(_ balance: StatedBalance, portfolio name: String) {
        // Not an account of its own: one no operation moved cannot go below zero.
        let acct = Account(portfolio: portfolioNumber(name), asset: balance.asset)
        let o = originIndex(balance.source)
        var list = openings[acct] ?? []
        if let i = list.firstIndex(where: { $0.origin == o }) {
            guard let sum = list[i].amount.adding(balance.opening) else { return }
            list[i].amount = sum
        } else {
            list.append(Opening(origin: o, amount: balance.opening, row: balance.source.row))
        }
        openings[acct] = list
    }

    /// Each account's opening, from the origin whose operations begin first (one with none comes last).
    private func seeds() -> [UInt32: Opening] {
        var seeds: [UInt32: Opening] = [:]
        for (account, list) in openings {
            guard let index = accountIndex[account] else { continue }
            seeds[index] = list.min { (originFirstTime[Int($0.origin)], $0.origin) < (originFirstTime[Int($1.origin)], $1.origin) }!
        }
        return seeds
    }

    /// The records in time order, ties in the order they were recorded, each handed to `body` with
    /// its operation's number.
    private func forEachInTimeOrder(_ body: (_ op: Int, _ record: OperationLog.Record) -> Void) throws {
        if ascending {
            var op = 0
            try log.forEach { record in
                body(op, record)
                op += 1
            }
        } else if descending {
            // Backwards, each run of equal times in recorded order.
            var run: [OperationLog.Record] = []
            var op = count
            var runTime: Int64?
            func flush() {
                var first = op
                for record in run.reversed() {
                    body(first, record)
                    first += 1
                }
                run.removeAll(keepingCapacity: true)
            }
            try log.forEachBackwards { record in
                if let t = runTime, t != record.time { flush() }
                runTime = record.time
                op -= 1
                run.append(record)
            }
            flush()
        } else if let starts = runStarts {
            // Each run read forwards from its first operation; the earliest time of their next
            // records goes first, a tie to the run recorded first.
            let bounds = [0] + starts + [count]
            var runs = try (0..<(bounds.count - 1)).map { try log.reader(from: bounds[$0], to: bounds[$0 + 1]) }
            var next = try runs.indices.map { try runs[$0].next() }
            while true {
                var pick = -1
                for r in next.indices {
                    guard let candidate = next[r] else { continue }
                    if pick < 0 || candidate.record.time < next[pick]!.record.time { pick = r }
                }
                guard pick >= 0, let chosen = next[pick] else { break }
                body(chosen.op, chosen.record)
                next[pick] = try runs[pick].next()
            }
        } else {
            let blocks = try log.allBlocks()
            var index: [(time: Int64, op: Int32, row: Int, at: OperationLog.Position)] = []
            index.reserveCapacity(count)
            var op: Int32 = 0
            for b in blocks.indices {
                OperationLog.forEach(in: blocks[b], block: b) { record in
                    index.append((record.time, op, record.row, record.position))
                    op += 1
                }
            }
            index.sort { $0.time != $1.time ? $0.time < $1.time : $0.op < $1.op }
            for entry in index {
                body(Int(entry.op), OperationLog.Record(time: entry.time, row: entry.row, position: entry.at, bytes: blocks[Int(entry.at.block)]))
            }
        }
    }

    /// The origin (input and sheet) of operation `op`, from the runs recorded.
    private func origin(ofOperation op: Int) -> UInt32 {
        var low = 0
        var high = originRuns.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if originRuns[mid].start <= op { low = mid } else { high = mid - 1 }
        }
        return originRuns[low].origin
    }

    /// Replays every operation in time order: the warnings and what each portfolio holds of each
    /// asset at the end (nil where it went beyond 38 digits), by portfolio then asset. One
    /// `negative-balance` warning per portfolio and asset whose balance is below zero after all
    /// the operations of an instant, naming the first of them that moved it; one `balance-untracked` warning per account whose
    /// balance went beyond 38 digits and could no longer be followed. Throws only when the scratch
    /// file cannot be read back.
    func replay() throws -> (warnings: [ConversionWarning], balances: [PortfolioBalance]) {
        guard count > 0 else { return ([], []) }
        var balances = [ExactDecimal?](repeating: .zero, count: accounts.count)
        var warned = [Bool](repeating: false, count: accounts.count)
        var found: [(op: Int, time: Int64, row: Int, account: Int, balance: ExactDecimal?)] = []
        // What the sources say was there before their operations: the negative-balance check
        // counts from it (a security bought before the period and sold in it is not a warning).
        let seeds = seeds()
        var seed = [ExactDecimal](repeating: .zero, count: accounts.count)
        for (account, opening) in seeds { seed[Int(account)] = opening.amount }
        for item in untracked where balances[Int(item.account)] != nil {
            balances[Int(item.account)] = nil
            found.append((item.op, item.time, item.row, Int(item.account), nil))
        }
        // The operations of one instant are one step: a balance is checked once all of them are
        // in (a dividend credited and converted out in the same second, a file listing the
        // newest first), against the first operation of the step that moved it.
        var stepTime = Int64.min
        var moved: [(op: Int, row: Int, account: Int)] = []
        // The step each account was last moved in: no hashing per change.
        var step = 0
        var movedIn = [Int](repeating: -1, count: accounts.count)
        func closeStep() {
            for m in moved where !warned[m.account] {
                guard let next = balances[m.account], next.isNegative || seed[m.account].isNegative else { continue }
                // Beyond 38 digits with the opening: the check goes on from zero.
                let held = next.adding(seed[m.account]) ?? next
                if held.isNegative {
                    warned[m.account] = true
                    found.append((m.op, stepTime, m.row, m.account, held))
                }
            }
            moved.removeAll(keepingCapacity: true)
            step += 1
        }
        try forEachInTimeOrder { op, record in
            if record.time != stepTime {
                closeStep()
                stepTime = record.time
            }
            record.forEachChange { account, amount in
                let a = Int(account)
                guard let current = balances[a] else { return }
                // A balance beyond 38 digits stops being tracked rather than being rounded.
                guard let next = current.adding(amount) else {
                    balances[a] = nil
                    found.append((op, record.time, record.row, a, nil))
                    return
                }
                balances[a] = next
                if !warned[a], movedIn[a] != step {
                    movedIn[a] = step
                    moved.append((op, record.row, a))
                }
            }
        }
        closeStep()
        let finals = accounts.indices.map { a in
            PortfolioBalance(portfolio: portfolioNames[accounts[a].portfolio], asset: accounts[a].asset, amount: balances[a])
        }.sorted { ($0.portfolio, $0.asset) < ($1.portfolio, $1.asset) }
        let warnings = found.map { item in
            let account = accounts[item.account]
            let portfolio = portfolioNames[account.portfolio]
            let place = origins[Int(origin(ofOperation: item.op))]
            let time = Timestamp(secondsSinceEpoch: item.time)
            let source = place.atRow(item.row)
            guard let balance = item.balance else {
                return ConversionWarning(
                    code: "balance-untracked",
                    message: "balance of \(account.asset) in portfolio \(portfolio) goes beyond 38 digits at \(time); it is not checked from there on",
                    source: source)
            }
            let given =
                seeds[UInt32(item.account)].map { opening in
                    let printer = opening.origin == origin(ofOperation: item.op) ? "the source" : origins[Int(opening.origin)].path
                    return " given the opening balance of \(opening.amount) that \(printer) prints (row \(opening.row))"
                } ?? ""
            return ConversionWarning(
                code: "negative-balance",
                message:
                    "balance of \(account.asset) in portfolio \(portfolio) goes below zero, to \(balance), at \(time)\(given): the history loaded is incomplete, or a row is wrong",
                source: source)
        }
        return (warnings, finals)
    }
}

/// The operations' records as bytes, in blocks of 256 KiB that are never copied as they grow:
/// per record its time and row (each the difference from the record before it in the block, so
/// that the first of a block stands alone), the number of changes, then per change the account,
/// the amount's scale and its mantissa, all LEB128 (signed ones zigzagged). A full block goes to a
/// `Spool`, one after another, read back by where each begins.
struct OperationLog {
    static let blockSize = 256 << 10
    let blockSize: Int

    init(blockSize: Int = OperationLog.blockSize) { self.blockSize = blockSize }

    /// The full blocks, one after another; each record is whole within its block.
    private var blocks = Spool()
    /// Where each full block begins in `blocks`.
    private var blockStarts: [Int] = []
    /// The block being written.
    private var current: [UInt8] = []
    private var scratch: [UInt8] = []
    private var previousTime: Int64 = 0
    private var previousRow = 0
    /// How many records there are, and the number of each block's first record.
    private var records = 0
    private var blockFirstRecord: [Int] = []

    /// Where a record's changes are: its block, and the offset of their count in it.
    struct Position: Sendable {
        var block: Int32
        var changes: Int32
    }

    /// One operation's record, decoded but for its changes.
    struct Record {
        let time: Int64
        let row: Int
        let position: Position
        let bytes: [UInt8]

        /// Each change: its account and amount.
        func forEachChange(_ body: (UInt32, ExactDecimal) -> Void) {
            var at = Int(position.changes)
            let n = Int(LEB128.unsigned(bytes, &at))
            for _ in 0..<n {
                let account = UInt32(truncatingIfNeeded: LEB128.unsigned(bytes, &at))
                let scale = Int(bytes[at])
                at += 1
                let mantissa = LEB128.signed(bytes, &at)
                body(account, ExactDecimal(normalizedMantissa: mantissa, scale: scale))
            }
        }
    }

    mutating func append(time: Int64, row: Int, changes: [(account: UInt32, amount: ExactDecimal)]) {
        scratch.removeAll(keepingCapacity: true)
        // A new block starts its records' differences afresh.
        let fresh = current.isEmpty || current.count + Self.maxRecordBytes(changes.count) > blockSize
        if fresh {
            previousTime = 0
            previousRow = 0
            if !current.isEmpty {
                blockStarts.append(current.withUnsafeBytes { blocks.append(contentsOf: $0) })
                current.removeAll(keepingCapacity: true)
            }
            blockFirstRecord.append(records)
        }
        records += 1
        LEB128.put(signed: Int128(time) - Int128(previousTime), &scratch)
        LEB128.put(signed: Int128(row) - Int128(previousRow), &scratch)
        previousTime = time
        previousRow = row
        LEB128.put(UInt128(changes.count), &scratch)
        for (account, amount) in changes {
            LEB128.put(UInt128(account), &scratch)
            scratch.append(UInt8(amount.scale))
            LEB128.put(signed: amount.mantissa, &scratch)
        }
        if current.capacity == 0 { current.reserveCapacity(max(blockSize, Self.maxRecordBytes(changes.count))) }
        current.append(contentsOf: scratch)
    }

    /// How many blocks there are, the one being written included.
    private var blockCount: Int { blockStarts.count + (current.isEmpty ? 0 : 1) }

    /// The bytes of block `b`.
    private func bytes(ofBlock b: Int) throws -> [UInt8] {
        guard b < blockStarts.count else { return current }
        let end = b + 1 < blockStarts.count ? blockStarts[b + 1] : blocks.count
        return try blocks.bytes(from: blockStarts[b], count: end - blockStarts[b])
    }

    /// Every block's bytes, in order (read back from the file).
    func allBlocks() throws -> [[UInt8]] { try (0..<blockCount).map { try bytes(ofBlock: $0) } }

    /// Every record, in the order appended.
    func forEach(_ body: (Record) -> Void) throws {
        for b in 0..<blockCount { Self.forEach(in: try bytes(ofBlock: b), block: b, body) }
    }

    /// Every record, last first.
    func forEachBackwards(_ body: (Record) -> Void) throws {
        var records: [Record] = []
        for b in (0..<blockCount).reversed() {
            records.removeAll(keepingCapacity: true)
            Self.forEach(in: try bytes(ofBlock: b), block: b) { records.append($0) }
            for record in records.reversed() { body(record) }
        }
    }

    /// The most bytes a record of `changes` changes can take.
    private static func maxRecordBytes(_ changes: Int) -> Int { 19 + 19 + 10 + changes * (5 + 1 + 19) }

    /// The records of a block's `bytes`.
    static func forEach(in bytes: [UInt8], block b: Int, _ body: (Record) -> Void) {
        var at = 0
        var time: Int64 = 0
        var row = 0
        while at < bytes.count { body(decode(bytes, block: b, at: &at, time: &time, row: &row)) }
    }

    /// The record at `at` in block `b`'s `bytes`, after one of `time` and `row`; `at` moves past it.
    private static func decode(_ bytes: [UInt8], block b: Int, at: inout Int, time: inout Int64, row: inout Int) -> Record {
        time = Int64(Int128(time) + LEB128.signed(bytes, &at))
        row = Int(Int128(row) + LEB128.signed(bytes, &at))
        let changes = at
        let n = Int(LEB128.unsigned(bytes, &at))
        for _ in 0..<n {
            _ = LEB128.unsigned(bytes, &at)
            at += 1
            _ = LEB128.signed(bytes, &at)
        }
        return Record(time: time, row: row, position: Position(block: Int32(b), changes: Int32(changes)), bytes: bytes)
    }

    /// Reads records `start..<end` in order, one block in memory at a time.
    struct Reader {
        fileprivate let log: OperationLog
        fileprivate var op: Int
        fileprivate let end: Int
        fileprivate var block: Int
        fileprivate var bytes: [UInt8] = []
        fileprivate var at = 0
        fileprivate var time: Int64 = 0
        fileprivate var row = 0

        /// The next record and its number, or nil past the last.
        mutating func next() throws -> (op: Int, record: Record)? {
            guard op < end else { return nil }
            while at == bytes.count {
                block += 1
                bytes = try log.bytes(ofBlock: block)
                at = 0
                time = 0
                row = 0
            }
            let record = OperationLog.decode(bytes, block: block, at: &at, time: &time, row: &row)
            op += 1
            return (op - 1, record)
        }
    }

    /// A reader of records `start..<end`, placed at `start` (the records before it in its block
    /// are decoded and passed over).
    func reader(from start: Int, to end: Int) throws -> Reader {
        var reader = Reader(log: self, op: start, end: end, block: -1)
        guard start < end else { return reader }
        var low = 0
        var high = blockFirstRecord.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if blockFirstRecord[mid] <= start { low = mid } else { high = mid - 1 }
        }
        reader.block = low
        reader.bytes = try bytes(ofBlock: low)
        for _ in blockFirstRecord[low]..<start {
            _ = Self.decode(reader.bytes, block: low, at: &reader.at, time: &reader.time, row: &reader.row)
        }
        return reader
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
