/// A list that only grows at its end, kept in chunks of fixed size: appending never copies what is
/// already held (an array that doubles holds its old and its new storage at once, twice what it
/// needs at the moment it grows), and `drain` hands the elements back in order while it frees
/// each chunk behind it.
///
/// For what a reader must hold until the end of its input (the rows of a report whose later
/// sections finish its earlier ones): memory is what the elements need, not twice that.
public struct ChunkedList<Element> {
    private var chunks: [[Element]] = []
    public let chunkSize: Int
    public private(set) var count = 0

    public init(chunkSize: Int = 4096) {
        precondition(chunkSize > 0, "a chunk holds at least one element")
        self.chunkSize = chunkSize
    }

    public var isEmpty: Bool { count == 0 }

    public mutating func append(_ element: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == chunkSize {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(chunkSize)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Calls `body` with every element in order, emptying the list as it goes: a chunk is freed
    /// once its elements are handed on. When `body` throws, the elements not yet handed on are
    /// dropped with the rest of the list.
    public mutating func drain(_ body: (Element) throws -> Void) rethrows {
        var taken = chunks
        chunks = []
        count = 0
        for i in taken.indices {
            let chunk = taken[i]
            taken[i] = []
            for element in chunk { try body(element) }
        }
    }
}

extension ChunkedList: Sendable where Element: Sendable {}
