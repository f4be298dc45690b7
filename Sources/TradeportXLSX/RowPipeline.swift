import CXLSXSupport
import Foundation

/// Rows copied out of the C sheet parser in batches, so that inflating and parsing a sheet (its
/// own threads) and using its rows (the caller's thread) overlap. Cells of shared strings hold the
/// string's index; they are resolved, and number cells in date styles marked, when handed over.
struct RowBatch {
    var rows: [cx_row] = []
    var cells: [cx_cell] = []
    var bytes: [UInt8] = []

    static let rowsPerBatch = 512

    init(_ batch: UnsafePointer<cx_sheet_batch>) {
        let b = batch.pointee
        rows = Array(UnsafeBufferPointer(start: b.rows, count: Int(b.row_count)))
        cells = Array(UnsafeBufferPointer(start: b.cells, count: Int(b.cell_count)))
        bytes = Array(UnsafeBufferPointer(start: b.bytes, count: Int(b.byte_count)))
    }

    /// Hands each row over as an `XLSXRow`; stops when `body` returns false.
    func forEachRow(_ scratch: inout [XLSXCell], strings: SharedStrings?, dateStyles: [Bool],
                    _ body: (XLSXRow) throws -> Bool) rethrows -> Bool {
        try bytes.withUnsafeBytes { arena in
            var start = 0
            for row in rows {
                let end = Int(row.cells_end)
                scratch.removeAll(keepingCapacity: true)
                for c in cells[start..<end] {
                    let text: UnsafeRawBufferPointer
                    var kind: XLSXCell.Kind
                    switch Int32(c.type) {
                    case Int32(CX_SHARED.rawValue):
                        text = strings!.bytes(at: Int(c.offset))
                        if text.isEmpty { continue }
                        kind = .string
                    default:
                        text = UnsafeRawBufferPointer(rebasing: arena[Int(c.offset)..<(Int(c.offset) + Int(c.length))])
                        switch Int32(c.type) {
                        case Int32(CX_NUMBER.rawValue):
                            kind = c.style >= 0 && Int(c.style) < dateStyles.count && dateStyles[Int(c.style)] ? .date : .number
                        case Int32(CX_BOOLEAN.rawValue): kind = .boolean
                        case Int32(CX_ERROR.rawValue): kind = .error
                        case Int32(CX_ISO_DATE.rawValue): kind = .isoDate
                        default: kind = .string
                        }
                    }
                    scratch.append(XLSXCell(column: Int(c.column), kind: kind, bytes: text))
                }
                start = end
                if scratch.isEmpty { continue }
                let more = try scratch.withUnsafeBufferPointer { try body(XLSXRow(number: Int(row.number), cells: $0)) }
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
