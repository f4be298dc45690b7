import Foundation

/// A bounded first-in, first-out hand-over between two threads, then its end (an error or none).
///
/// The sender `send`s and then `finish`es (or `close`s); the receiver `receive`s until nil, or
/// `cancel`s to stop listening, which releases a waiting sender and drops what waits. `Failure`
/// is what can end the sending side (`Never` when nothing can: `receive()` then needs no `try`).
public final class Handoff<Element, Failure: Error>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Element?] = []
    private var head = 0
    private var finished = false
    private var failure: Failure?
    private var cancelled = false
    private let capacity: Int

    /// `capacity` elements may wait before `send` blocks.
    public init(capacity: Int) {
        precondition(capacity > 0, "a hand-over needs room for one element")
        self.capacity = capacity
    }

    /// Waits for room and sends; false once the receiver has stopped listening.
    public func send(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count - head >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        queue.append(element)
        condition.broadcast()
        return true
    }

    /// The sender is done: `error` is what stopped it, if anything.
    public func finish(_ error: Failure?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The sender is done, without an error.
    public func close() { finish(nil) }

    /// The next element; nil at the end, or throws what ended the sending side.
    public func receive() throws(Failure) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while queue.count == head && !finished { condition.wait() }
        if queue.count > head {
            // Release the taken element's slot at once: a slot kept until the next compaction
            // would hold what it refers to alive (a batch of rows or operations, a megabyte or more).
            let element = queue[head]!
            queue[head] = nil
            head += 1
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

    /// The receiver stops: a waiting sender is released and what waits is dropped.
    public func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the sending side has finished.
    public func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
