import TradeportCore

/// Operations kept on disk as they arrive and given back in time order at the end, for writers
/// whose output depends on the order of time (a ledger books lots first in, first out; its
/// readers expect dates ascending) while a source may come newest first. Memory holds 24 bytes an
/// operation; the operations themselves are their `RecordBytes` in a spool.
final class OrderedOperations {
    private struct Entry {
        var time: Int64
        var nanoseconds: UInt32
        /// The portfolio's number, with the kind in the top two bits (0 a trade, 1 a transaction,
        /// 2 a movement).
        var portfolioAndKind: UInt32
        /// The spool offset (40 bits) and the length (24 bits).
        var place: UInt64
    }

    private let spool: Spool
    private var entries: [Entry] = []
    private var portfolios = PortfolioNumbering()
    private var scratch: [UInt8] = []

    init() throws {
        spool = Spool()
    }

    var count: Int { entries.count }

    func append(_ operation: PortfolioOperation, portfolio: String) throws {
        scratch.removeAll(keepingCapacity: true)
        switch operation {
        case .trade(let trade): RecordBytes.append(trade, to: &scratch)
        case .transaction(let transaction): RecordBytes.append(transaction, to: &scratch)
        case .movement(let movement): RecordBytes.append(movement, to: &scratch)
        }
        let offset = spool.append { $0.append(contentsOf: scratch) }
        let length = scratch.count
        guard length <= 0xFF_FFFF, offset < 1 << 40 else {
            throw OutputError(.beyondTarget, path: "spool", message: "an operation of \(length) bytes is beyond what the writer holds")
        }
        let number = portfolios.number(portfolio)
        entries.append(
            Entry(
                time: operation.time.secondsSinceEpoch, nanoseconds: operation.time.nanoseconds,
                portfolioAndKind: number | operation.kindBits, place: UInt64(offset) << 24 | UInt64(length)))
    }

    /// Every operation, by time, then in the order it arrived; with its portfolio.
    func forEachInTimeOrder(_ body: (PortfolioOperation, String) throws -> Void) throws {
        var order = Array(entries.indices)
        order.sort { a, b in
            let x = entries[a]
            let y = entries[b]
            if x.time != y.time { return x.time < y.time }
            if x.nanoseconds != y.nanoseconds { return x.nanoseconds < y.nanoseconds }
            return a < b
        }
        var bytes: [UInt8] = []
        for i in order {
            let e = entries[i]
            try spool.read(offset: Int(e.place >> 24), count: Int(e.place & 0xFF_FFFF), into: &bytes)
            let operation = try bytes.withUnsafeBytes { bytes throws(RecordBytes.Malformed) -> PortfolioOperation in
                switch e.portfolioAndKind >> 30 {
                case 0: return .trade(try RecordBytes.read(Trade.self, from: bytes))
                case 1: return .transaction(try RecordBytes.read(CashTransaction.self, from: bytes))
                default: return .movement(try RecordBytes.read(Movement.self, from: bytes))
                }
            }
            try body(operation, portfolios.names[Int(e.portfolioAndKind & 0x3FFF_FFFF)])
        }
    }
}
