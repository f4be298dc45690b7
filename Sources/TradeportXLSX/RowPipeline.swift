import Foundation

/// Rows copied out of the parser in batches, so that inflating and parsing a sheet (one thread)
/// and using its rows (the caller's thread) overlap. A batch owns the bytes of its cells; cells
/// holding shared strings point into the shared strings, which do not change while a sheet is read.
struct RowBatch {
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

    mutating func append(_ row: XLSXRow, sharedStorage: ClosedRange<UnsafeRawPointer>?) {
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

/// A bounded first-in, first-out hand-over between two threads, then its end (an error or none).
final class Handoff<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Element] = []
    private var head = 0
    private var finished = false
    private var failure: Error?
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Waits for room; false once the receiver has stopped listening.
    func send(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count - head >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        queue.append(element)
        condition.broadcast()
        return true
    }

    /// The sender is done: `error` is what stopped it, if anything.
    func finish(_ error: Error?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next element; nil at the end, or throws what ended the sending side.
    func receive() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while queue.count == head && !finished { condition.wait() }
        if queue.count > head {
            let element = queue[head]
            head += 1
            // Drop what was taken, so the queue holds only what waits.
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= capacity {
                queue.removeFirst(head)
                head = 0
            }
            condition.broadcast()
            return element
        }
        if let failure { throw failure }
        return nil
    }

    /// The receiver stops; a waiting sender is released.
    func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the sending side has finished.
    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
