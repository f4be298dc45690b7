import Testing

@testable import TradeportCore

#if canImport(Glibc)
import Glibc
#endif

/// The ledger against a replay written plainly here: every operation kept whole, sorted by time
/// (ties in the order recorded), its changes merged per asset as the ledger merges them.
@Suite("Balance ledger")
struct BalanceLedgerTests {
    /// SplitMix64: the same operations on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// `runs`: 5 runs in time order one after another, each starting again near the first time (a
    /// report's deals, then its cash operations); `mergedRuns`: as many as the replay merges;
    /// `oneRunMore`: one more, which it sorts.
    enum Order: CaseIterable { case ascending, descending, unordered, equal, runs, mergedRuns, oneRunMore }

    static let assets = ["AAA", "BBB", "CCC", "DDD"].map { AssetCode($0)! }

    /// `count` operations of two portfolios from three inputs, in `order`: trades (a fee in the
    /// base now and then, which merges with the quantity), deposits and withdrawals; amounts from
    /// cents to beyond 64 bits, and now and then a trade whose value is beyond 38 digits.
    static func operations(_ count: Int, _ order: Order, seed: UInt64) -> [(PortfolioOperation, String)] {
        var g = Generator(state: seed)
        func amount() -> ExactDecimal {
            switch Int.random(in: 0..<10, using: &g) {
            case 0: return ExactDecimal(mantissa: Int128(Int64.random(in: 1...Int64.max, using: &g)) * 1_000_003, scale: Int.random(in: 0...6, using: &g))!
            case 1: return ExactDecimal(mantissa: Int128(Int.random(in: 1...9, using: &g)), scale: 0)!
            default: return ExactDecimal(mantissa: Int128(Int.random(in: 1...5_000_000, using: &g)), scale: Int.random(in: 0...8, using: &g))!
            }
        }
        var time: Int64 = 1_600_000_000
        var result: [(PortfolioOperation, String)] = []
        for i in 0..<count {
            switch order {
            case .ascending: time += Int64.random(in: 0...2, using: &g)
            case .descending: time -= Int64.random(in: 0...2, using: &g)
            case .unordered: time = 1_600_000_000 + Int64.random(in: 0...Int64(count / 3 + 1), using: &g)
            case .equal: break
            case .runs, .mergedRuns, .oneRunMore:
                let runs = order == .runs ? 5 : BalanceLedger.mergedRuns + (order == .oneRunMore ? 1 : 0)
                if i > 0, i * runs / count != (i - 1) * runs / count {
                    time = 1_600_000_000 + Int64.random(in: 0...3, using: &g)
                } else {
                    time += Int64.random(in: 0...2, using: &g)
                }
            }
            let path = ["a.csv", "b.csv", "c.xlsx"][(i / 7) % 3]
            let source = SourceLocation(path: path, row: i + 2, sheet: path.hasSuffix("xlsx") ? "S" : nil)
            let portfolio = i % 5 == 0 ? "second" : "main"
            let t = Timestamp(secondsSinceEpoch: time)
            let base = assets.randomElement(using: &g)!
            var quote = assets.randomElement(using: &g)!
            if quote == base { quote = assets[(assets.firstIndex(of: base)! + 1) % assets.count] }
            let operation: PortfolioOperation
            switch Int.random(in: 0..<10, using: &g) {
            case 0...2:
                operation = .transaction(CashTransaction(externalId: nil, time: t, type: .deposit, asset: base, amount: amount(), source: source))
            case 3:
                operation = .transaction(
                    CashTransaction(
                        externalId: nil, time: t, type: .withdrawal, asset: base, amount: amount(),
                        fee: CashFee(amount: amount(), currency: base), source: source))
            case 4 where i % 97 == 0:
                // quantity × price beyond 38 digits: the quote's balance is no longer followed.
                let huge = ExactDecimal(mantissa: 1_000_000_000_000_000_000_000_000_000_000, scale: 0)!
                operation = .trade(
                    Trade(
                        externalId: nil, time: t, side: .buy, base: base, quote: quote, quantity: huge, price: huge,
                        amount: nil, source: source))
            default:
                let fees = Bool.random(using: &g) ? [TradeFee(amount: amount(), currency: Bool.random(using: &g) ? base : quote, kind: .broker)] : []
                operation = .trade(
                    Trade(
                        externalId: nil, time: t, side: Bool.random(using: &g) ? .buy : .sell, base: base, quote: quote,
                        quantity: amount(), price: amount(), amount: nil, fees: fees, source: source))
            }
            result.append((operation, portfolio))
        }
        return result
    }

    struct Key: Hashable, Comparable {
        var portfolio: String
        var asset: AssetCode
        static func < (a: Key, b: Key) -> Bool { (a.portfolio, a.asset) < (b.portfolio, b.asset) }
    }

    /// The plain replay: warnings and final balances.
    static func reference(_ operations: [(PortfolioOperation, String)]) -> (warnings: [ConversionWarning], balances: [PortfolioBalance]) {
        var balances: [Key: ExactDecimal?] = [:]
        var warned: Set<Key> = []
        var warnings: [ConversionWarning] = []
        func note(_ code: String, _ key: Key, _ op: PortfolioOperation, _ balance: ExactDecimal?) {
            let message =
                balance.map {
                    "balance of \(key.asset) in portfolio \(key.portfolio) goes below zero, to \($0), at \(op.time): the history loaded is incomplete, or a row is wrong"
                }
                ?? "balance of \(key.asset) in portfolio \(key.portfolio) goes beyond 38 digits at \(op.time); it is not checked from there on"
            warnings.append(ConversionWarning(code: code, message: message, source: op.source))
        }
        var changes: [[(Key, ExactDecimal)]] = []
        for (op, portfolio) in operations {
            var merged: [(Key, ExactDecimal)] = []
            op.forEachBalanceChange { asset, change, _ in
                let key = Key(portfolio: portfolio, asset: asset)
                if balances[key] == nil { balances[key] = .some(.zero) }
                guard let change else {
                    if balances[key]! != nil {
                        balances[key] = .some(nil)
                        note("balance-untracked", key, op, nil)
                    }
                    return
                }
                if let e = merged.lastIndex(where: { $0.0 == key }), let sum = merged[e].1.adding(change) {
                    merged[e].1 = sum
                } else {
                    merged.append((key, change))
                }
            }
            changes.append(merged)
        }
        let order = operations.indices.sorted { a, b in
            let (ta, tb) = (operations[a].0.time.secondsSinceEpoch, operations[b].0.time.secondsSinceEpoch)
            return ta != tb ? ta < tb : a < b
        }
        // The operations of one instant are one step: a balance is checked once all of them are in,
        // against the first of them that moved it.
        var i = 0
        while i < order.count {
            let time = operations[order[i]].0.time.secondsSinceEpoch
            var step: [(key: Key, op: Int)] = []
            var inStep: Set<Key> = []
            var j = i
            while j < order.count, operations[order[j]].0.time.secondsSinceEpoch == time {
                let k = order[j]
                for (key, change) in changes[k] {
                    guard let current = balances[key]! else { continue }
                    guard let next = current.adding(change) else {
                        balances[key] = .some(nil)
                        note("balance-untracked", key, operations[k].0, nil)
                        continue
                    }
                    balances[key] = .some(next)
                    if !warned.contains(key), inStep.insert(key).inserted { step.append((key, k)) }
                }
                j += 1
            }
            for (key, k) in step where !warned.contains(key) {
                guard let balance = balances[key]!, balance.isNegative else { continue }
                warned.insert(key)
                note("negative-balance", key, operations[k].0, balance)
            }
            i = j
        }
        let finals = balances.keys.sorted().map { PortfolioBalance(portfolio: $0.portfolio, asset: $0.asset, amount: balances[$0]!) }
        return (warnings, finals)
    }

    @Test(arguments: Order.allCases, [8, 400, 1 << 18])
    func replaysAsAPlainSortWould(order: Order, blockSize: Int) throws {
        for seed in 1...4 {
            let operations = Self.operations(order == .unordered ? 900 : 1_500, order, seed: UInt64(seed) &* 7919)
            var ledger = BalanceLedger(blockSize: blockSize)
            for (op, portfolio) in operations { ledger.record(op, portfolio: portfolio) }
            let replayed = try ledger.replay()
            let expected = Self.reference(operations)
            #expect(replayed.balances == expected.balances, "seed \(seed)")
            #expect(replayed.warnings == expected.warnings, "seed \(seed)")
            // (Operations all of one instant are one step: only the balances after all of them count.)
            if order != .equal {
                #expect(expected.warnings.contains { $0.code == "negative-balance" } && expected.warnings.contains { $0.code == "balance-untracked" })
            }
        }
    }

    /// A source's opening balance is where its account starts for the warning; of two sources, the
    /// one whose operations begin first; the balances reported still start from zero.
    @Test func openingBalancesSeedTheCheck() throws {
        let a = SourceLocation(path: "2024.xlsx", row: 1)
        let b = SourceLocation(path: "2023.xlsx", row: 1)
        func withdrawal(_ amount: Int, day: Int64, from source: TradeportCore.SourceLocation, row: Int) -> PortfolioOperation {
            .transaction(
                CashTransaction(
                    externalId: nil, time: Timestamp(secondsSinceEpoch: day * 86_400), type: .withdrawal,
                    asset: AssetCode("RUB")!, amount: ExactDecimal(amount), source: source.atRow(row)))
        }
        var ledger = BalanceLedger()
        ledger.record(withdrawal(60, day: 400, from: a, row: 10), portfolio: "main")
        ledger.record(withdrawal(30, day: 30, from: b, row: 20), portfolio: "main")
        ledger.record(withdrawal(50, day: 500, from: a, row: 11), portfolio: "main")
        // 2024's opening (what 2023 left) is not added again: 2023's operations begin first.
        ledger.state(StatedBalance(asset: AssetCode("RUB")!, kind: .cash, opening: ExactDecimal(70), closing: .zero, source: a.atRow(3)), portfolio: "main")
        ledger.state(
            StatedBalance(asset: AssetCode("RUB")!, kind: .cash, opening: ExactDecimal(100), closing: ExactDecimal(70), source: b.atRow(4)), portfolio: "main")
        // A security no operation moved: no account, nothing to say.
        ledger.state(
            StatedBalance(asset: AssetCode("SBER")!, kind: .position, opening: ExactDecimal(5), closing: ExactDecimal(5), source: b.atRow(5)), portfolio: "main"
        )
        let replayed = try ledger.replay()
        #expect(
            replayed.warnings.map(\.message) == [
                "balance of RUB in portfolio main goes below zero, to -40, at 1971-05-16T00:00:00Z given the opening balance of 100 that 2023.xlsx prints (row 4): the history loaded is incomplete, or a row is wrong"
            ])
        #expect(replayed.warnings.first?.source == a.atRow(11))
        #expect(replayed.balances == [PortfolioBalance(portfolio: "main", asset: AssetCode("RUB")!, amount: ExactDecimal(-140))])
    }

    @Test func anEmptyLedgerHasNothingToSay() throws {
        let replayed = try BalanceLedger().replay()
        #expect(replayed.warnings.isEmpty && replayed.balances.isEmpty)
    }
}

@Suite("Asset codes")
struct AssetCodeTests {
    @Test(arguments: ["BTC", "eurs", "0700", "1INCH", "BRK.B", "BF-B", "BRK/B", "TGLD@", "RDS_A", "XETR:SAP", "A", String(repeating: "A", count: 32)])
    func realTickersAreCodes(_ text: String) {
        #expect(AssetCode(text)?.text == text.uppercased())
    }

    /// Numbers, dates and times are not codes, nor is half of a pair, a space, a control
    /// character or anything past 32 bytes.
    @Test(arguments: [
        "", "11.0563304000", "01.01.2026", "2024-01-01", "10:30", "BTC-", "-BTC", ".B", "@X", "BRK B", "BRK\tB",
        "Сбер", "BTC+", "A=B", String(repeating: "A", count: 33)
    ])
    func otherTextIsNot(_ text: String) {
        #expect(AssetCode(text) == nil)
    }
}

@Suite("The spool")
struct SpoolTests {
    @Test(arguments: [nil, "/nonexistent-directory-for-tradeport"])
    func readsBackAnyRangeAcrossChunksInTheFileAndInMemory(directory: String?) throws {
        // In a scratch file, and where none can be made (everything then stays in memory).
        let spooled = directory.map { Spool(directory: $0) } ?? Spool()
        var all: [UInt8] = []
        var g = BalanceLedgerTests.Generator(state: 42)
        // 3.5 chunks: pieces of every size, single bytes among them.
        while all.count < 3 * Spool.Cursor.chunkSize + Spool.Cursor.chunkSize / 2 {
            let piece = (0..<Int.random(in: 0...70_000, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
            _ = piece.withUnsafeBytes { spooled.append(contentsOf: $0) }
            all += piece
            let byte = UInt8.random(in: 0...255, using: &g)
            spooled.append(byte)
            all.append(byte)
        }
        #expect(spooled.count == all.count)
        let c = Spool.Cursor.chunkSize
        for (start, count) in [(0, 10), (c - 5, 10), (c - 1, 2 * c + 2), (3 * c - 3, all.count - 3 * c + 3), (all.count - 1, 1), (17, 0)] {
            #expect(try spooled.bytes(from: start, count: count) == Array(all[start..<(start + count)]), "\(start)+\(count)")
        }
        // In order with a cursor: ranges within a chunk, across two, and in the chunk still in memory.
        var cursor = Spool.Cursor()
        var start = 0
        while start < all.count {
            let count = min(Int.random(in: 0...300_000, using: &g), all.count - start)
            let read = try cursor.withBytes(of: spooled, from: start, count: count) { Array($0) }
            #expect(read == Array(all[start..<(start + count)]), "cursor \(start)+\(count)")
            start += count
        }
    }

    @Test("a scratch file is unlinked at once and not handed to programs the process starts")
    func scratchFilesAreClosedOnExec() throws {
        let fd = try anonymousTemporaryFile()
        defer { close(fd) }
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        var status = stat()
        #expect(fstat(fd, &status) == 0 && status.st_nlink == 0)
    }
}

@Suite("Record bytes")
struct RecordBytesTests {
    @Test("records read back from their bytes equal to themselves, every kind of field value among them")
    func roundTrips() throws {
        let source = SourceLocation(path: "/reports/отчёт 2024.xlsx", row: 1_048_576, sheet: "broker_rep")
        let full = Trade(
            externalId: "D-98765", time: Timestamp(secondsSinceEpoch: -86_400 * 365, nanoseconds: 999_999_999), side: .sell,
            base: AssetCode("SU26238RMFS4")!, quote: AssetCode("RUB")!, quantity: ExactDecimal(mantissa: Int128(1) << 100, scale: 0)!,
            price: ExactDecimal(mantissa: 12_345, scale: 4)!, amount: ExactDecimal(mantissa: -5, scale: 38),
            accruedInterest: ExactDecimal(mantissa: -Int128(Int64.max) * 3, scale: 2),
            fees: [
                TradeFee(amount: ExactDecimal(mantissa: 1, scale: 2)!, currency: AssetCode("RUB")!, kind: .broker),
                TradeFee(amount: .zero, currency: AssetCode("USD")!, kind: .clearing),
                TradeFee(amount: ExactDecimal(7), currency: AssetCode("EUR")!, kind: .other)
            ],
            isin: "RU000A1038V6", name: "ОФЗ 26238 «длинная»\u{0}", venue: "", settlementDate: CalendarDate(year: 2024, month: 2, day: 29),
            account: "2000123456", orderId: "o-1", pricePercent: ExactDecimal(mantissa: 6_512, scale: 2), nominal: ExactDecimal(1_000),
            source: source)
        let bare = Trade(
            externalId: nil, time: Timestamp(secondsSinceEpoch: 0), side: .buy, base: .placeholder, quote: .placeholder,
            quantity: ExactDecimal(1), price: .zero, amount: nil, source: SourceLocation(path: "", row: 0))
        for trade in [full, bare, Trade.placeholder] {
            var bytes: [UInt8] = []
            RecordBytes.append(trade, to: &bytes)
            #expect(try bytes.withUnsafeBytes { try RecordBytes.read(Trade.self, from: $0) } == trade)
            // Cut short, or with a byte too many: refused, never a different trade.
            for cut in [bytes.count - 1, bytes.count / 2, 0] {
                #expect(throws: RecordBytes.Malformed.self) { try bytes.prefix(cut).withUnsafeBytes { try RecordBytes.read(Trade.self, from: $0) } }
            }
            #expect(throws: RecordBytes.Malformed.self) { try (bytes + [0]).withUnsafeBytes { try RecordBytes.read(Trade.self, from: $0) } }
        }
        for record in [CashTransaction.placeholder] {
            var bytes: [UInt8] = []
            RecordBytes.append(record, to: &bytes)
            #expect(try bytes.withUnsafeBytes { try RecordBytes.read(CashTransaction.self, from: $0) } == record)
        }
        for record in [Movement.placeholder] {
            var bytes: [UInt8] = []
            RecordBytes.append(record, to: &bytes)
            #expect(try bytes.withUnsafeBytes { try RecordBytes.read(Movement.self, from: $0) } == record)
        }
    }
}

@Suite("What detection opened")
struct OpenedDuringDetectionTests {
    @Test func aSharedValueIsMadeOnceAndMayAskForAnother() {
        let opened = OpenedDuringDetection()
        var made = 0
        let first = opened.shared("outer") { () -> [Int] in
            made += 1
            // Made outside the lock: asking for another value from `make` does not wait for ever.
            return opened.shared("inner") { [7] } + [1]
        }
        let again = opened.shared("outer") { () -> [Int] in
            made += 1
            return []
        }
        #expect(first == [7, 1] && again == [7, 1] && made == 1)
        // A shared value stays: `take` hands it out once, as anything kept.
        #expect(opened.take("inner", as: [Int].self) == [7])
        #expect(opened.take("inner", as: [Int].self) == nil)
    }
}
