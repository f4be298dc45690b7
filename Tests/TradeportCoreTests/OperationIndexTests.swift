import Foundation
import Testing
import TradeportTestKit

@testable import TradeportCore

@Suite("Duplicate index and atomic output")
struct OperationIndexTests {
    @Test func tellsNewDuplicateAndConflict() {
        var index = OperationIndex()
        #expect(index.insert(id: "f:1", content: 10, source: 0, row: 1) == .new)
        #expect(index.insert(id: "f:2", content: 10, source: 0, row: 2) == .new)
        #expect(index.insert(id: "f:1", content: 10, source: 1, row: 5) == .duplicate)
        #expect(index.insert(id: "f:1", content: 11, source: 1, row: 6) == .conflict(.init(source: 0, row: 1)))
    }

    /// A first read's place is one ordinal across sources: it maps back to its own source and
    /// row past sources with no operations and rows read out of order (a workbook's sheets).
    @Test func conflictsNameTheFirstReadAcrossSources() {
        var index = OperationIndex()
        #expect(index.insert(id: "a", content: 1, source: 0, row: 7) == .new)
        #expect(index.insert(id: "b", content: 1, source: 0, row: 3) == .new)
        #expect(index.insert(id: "c", content: 1, source: 3, row: 0) == .new)
        #expect(index.insert(id: "d", content: 1, source: 3, row: 9) == .new)
        #expect(index.insert(id: "e", content: 1, source: 4, row: 2) == .new)
        #expect(index.insert(id: "a", content: 2, source: 5, row: 1) == .conflict(.init(source: 0, row: 7)))
        #expect(index.insert(id: "b", content: 2, source: 5, row: 1) == .conflict(.init(source: 0, row: 3)))
        #expect(index.insert(id: "c", content: 2, source: 5, row: 1) == .conflict(.init(source: 3, row: 0)))
        #expect(index.insert(id: "d", content: 2, source: 5, row: 1) == .conflict(.init(source: 3, row: 9)))
        #expect(index.insert(id: "e", content: 2, source: 5, row: 1) == .conflict(.init(source: 4, row: 2)))
        #expect(index.insert(id: "e", content: 1, source: 5, row: 1) == .duplicate)
        // Past the ordinals' reach the conflict is still told, without a place.
        #expect(index.insert(id: "far", content: 1, source: 6, row: Int(UInt32.max)) == .new)
        #expect(index.insert(id: "far", content: 2, source: 7, row: 1) == .conflict(nil))
    }

    @Test func growsPastItsInitialSize() {
        var index = OperationIndex(expectedCount: 4)
        for i in 0..<10_000 { #expect(index.insert(id: "f:\(i)", content: UInt64(i), source: 0, row: i + 1) == .new) }
        for i in stride(from: 0, to: 10_000, by: 7) {
            #expect(index.insert(id: "f:\(i)", content: UInt64(i), source: 1, row: 1) == .duplicate)
        }
        #expect(index.count == 10_000)
    }

    /// Ids are kept as 64-bit hashes: ids that differ in a digit or two, as venues number them,
    /// must not meet (for a million of them, a chance of 3·10⁻⁸ if the hash is as good as random).
    @Test func numberedIdsDoNotShareAKey() {
        var keys = Set<UInt64>()
        for i in 0..<500_000 {
            keys.insert(OperationIndex.key(for: "dsx:\(i)"))
            keys.insert(OperationIndex.key(for: "tinkoff:A\(i)B"))
        }
        #expect(keys.count == 1_000_000)
    }

    func entries(_ dir: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir))?.sorted() ?? []
    }

    @Test func outputIsAllOrNothing() throws {
        let dir = try TestKit.makeTemporaryDirectory(prefix: "out")
        let path = dir + "/out.json"
        let discarded = try OutputFile.atomic(path: path)
        try discarded.append { $0.append("partial") }
        try discarded.flush()
        #expect(entries(dir).count == 1)  // only the temporary file
        discarded.discard()
        #expect(entries(dir).isEmpty)

        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let committed = try OutputFile.atomic(path: path)
        try committed.append { $0.append("new") }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        try committed.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(entries(dir) == ["out.json"])
    }

    @Test func outputIntoAMissingDirectoryFails() {
        #expect(throws: OutputError.self) { try OutputFile.atomic(path: "/nonexistent-dir-\(UUID())/out.json") }
    }
}

/// `OperationIdentity.contentHash` lists the fields by hand (for speed); a field it forgets would
/// let a conflicting row pass as a duplicate. These counts fail when a field is added, as a
/// reminder to hash it too.
@Suite("Content hash covers every field")
struct ContentHashCoverageTests {
    @Test func fieldCountsMatchWhatTheHashLists() {
        let source = SourceLocation(path: "x", row: 1)
        let trade = Trade(
            externalId: nil, time: Timestamp(secondsSinceEpoch: 0), side: .buy, base: AssetCode("A")!,
            quote: AssetCode("B")!, quantity: ExactDecimal(1), price: ExactDecimal(1), amount: nil, source: source)
        let transaction = CashTransaction(
            externalId: nil, time: Timestamp(secondsSinceEpoch: 0), type: .deposit,
            asset: AssetCode("A")!, amount: ExactDecimal(1), source: source)
        // All fields but `id` and `source` are hashed: 18 of 20 for trades, 13 of 15 for transactions.
        #expect(Mirror(reflecting: trade.fields).children.count == 20)
        #expect(Mirror(reflecting: transaction.fields).children.count == 15)
    }

    @Test func everyHashedFieldChangesTheHash() {
        let source = SourceLocation(path: "x", row: 1)
        let base = Trade(
            externalId: "1", time: Timestamp(secondsSinceEpoch: 0), side: .buy, base: AssetCode("A")!,
            quote: AssetCode("B")!, quantity: ExactDecimal(1), price: ExactDecimal(1), amount: nil, source: source)
        var variants: [Trade] = []
        func variant(_ change: (inout Trade) -> Void) {
            var t = base
            change(&t)
            variants.append(t)
        }
        variant { $0.externalId = "2" }
        variant { $0.time = Timestamp(secondsSinceEpoch: 1) }
        variant { $0.side = .sell }
        variant { $0.base = AssetCode("C")! }
        variant { $0.quote = AssetCode("C")! }
        variant { $0.quantity = ExactDecimal(2) }
        variant { $0.price = ExactDecimal(2) }
        variant { $0.amount = ExactDecimal(1) }
        variant { $0.accruedInterest = ExactDecimal(1) }
        variant { $0.fees = [TradeFee(amount: ExactDecimal(1), currency: AssetCode("A")!, kind: .broker)] }
        variant { $0.isin = "X" }
        variant { $0.name = "X" }
        variant { $0.venue = "X" }
        variant { $0.settlementDate = CalendarDate(year: 2020, month: 1, day: 1) }
        variant { $0.account = "X" }
        variant { $0.orderId = "X" }
        let original = OperationIdentity.contentHash(.trade(base))
        #expect(variants.count == 16)
        for (i, t) in variants.enumerated() {
            #expect(OperationIdentity.contentHash(.trade(t)) != original, "trade field \(i)")
        }
        var moved = base
        moved.source = SourceLocation(path: "y", row: 9)
        #expect(OperationIdentity.contentHash(.trade(moved)) == original)
    }
}

@Suite("The duplicate index's memory")
struct OperationIndexMemoryTests {
    /// A table sized ahead for millions of rows (as a conversion sizes it from a file's size)
    /// costs only the pages its ids land in: rows that repeat one id keep memory flat.
    @Test func aTableSizedAheadCostsOnlyThePagesItsIdsLandIn() throws {
        var index = OperationIndex(expectedCount: 8_000_000)  // 10.7M slots of 16 bytes: 170 MB if touched
        for row in 1...100_000 {
            #expect(index.insert(id: "dsx:1", content: 7, source: 0, row: row) == (row == 1 ? .new : .duplicate))
        }
        // One page, or one huge page (2 MiB) where the kernel gives the table huge pages.
        #expect(index.tableResidentBytes <= 4 << 20, "\(index.tableResidentBytes) bytes of the table in memory")
    }
}
