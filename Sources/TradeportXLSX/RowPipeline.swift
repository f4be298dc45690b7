import Foundation

/// Rows copied out of the parser in batches, so that inflating and parsing a sheet (one thread)
/// and using its rows (the caller's thread) overlap. A batch owns the bytes of its cells; cells
/// holding shared strings point into the shared strings, which do not change while a sheet is read.
final class RowBatch: @unchecked Sendable {
    struct Cell {
        var column: Int32
        var kind: XLSXCell.Kind
        var length: Int32
        /// Into `arena`, or nil with `shared` set.
        var offset: Int32
        var shared: UnsafeRawPointer?
    }

    var arena: [UInt8] = []
    var cells: [Cell] = []
    /// Each row's number and the end of its cells in `cells`.
    var rows: [(number: Int, cellsEnd: Int)] = []

    static let rowsPerBatch = 512

    init() {
        arena.reserveCapacity(64 * 1024)
        cells.reserveCapacity(Self.rowsPerBatch * 32)
        rows.reserveCapacity(Self.rowsPerBatch)
    }

    func append(_ row: XLSXRow, sharedStorage: ClosedRange<UnsafeRawPointer>?) {
        for cell in row.cells {
            let base = cell.bytes.baseAddress
            if let base, let shared = sharedStorage, shared.contains(base) {
                cells.append(Cell(column: Int32(cell.column), kind: cell.kind, length: Int32(cell.bytes.count), offset: 0, shared: base))
            } else {
                cells.append(Cell(column: Int32(cell.column), kind: cell.kind, length: Int32(cell.bytes.count),
                                  offset: Int32(arena.count), shared: nil))
                arena.append(contentsOf: cell.bytes)
            }
        }
        rows.append((row.number, cells.count))
    }

    var isFull: Bool { rows.count >= Self.rowsPerBatch || arena.count > 1 << 20 }

    /// Hands each row over as an `XLSXRow`; stops when `body` returns false.
    func forEachRow(_ scratch: inout [XLSXCell], _ body: (XLSXRow) throws -> Bool) rethrows -> Bool {
        try arena.withUnsafeBytes { arenaBytes in
            var start = 0
            for (number, end) in rows {
                scratch.removeAll(keepingCapacity: true)
                for c in cells[start..<end] {
                    let pointer = c.shared ?? arenaBytes.baseAddress.map { UnsafeRawPointer($0 + Int(c.offset)) }
                    scratch.append(XLSXCell(column: Int(c.column), kind: c.kind,
                                            bytes: UnsafeRawBufferPointer(start: pointer, count: Int(c.length))))
                }
                start = end
                let more = try scratch.withUnsafeBufferPointer { try body(XLSXRow(number: number, cells: $0)) }
                if !more { return false }
            }
            return true
        }
    }
}

/// A bounded hand-over of row batches from the parsing thread, then its end (an error or none).
final class RowChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [RowBatch] = []
    private var finished = false
    private var failure: Error?
    private var cancelled = false
    private let capacity = 4

    /// Waits for room; false once the receiver has stopped listening.
    func send(_ batch: RowBatch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    func finish(_ error: Error?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch; nil at the end, or throws what ended the parsing.
    func receive() throws -> RowBatch? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !finished { condition.wait() }
        if !queue.isEmpty {
            let batch = queue.removeFirst()
            condition.broadcast()
            return batch
        }
        if let failure { throw failure }
        return nil
    }

    /// The receiver stops; a waiting sender is released.
    func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Waits until the parsing thread has ended.
    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
