/// A list that grows at its end and is taken from its front, kept in chunks of fixed size:
/// appending never copies what is already held (an array that doubles holds its old and its new
/// storage at once, twice what it needs at the moment it grows), and `popFirst` frees each chunk
/// once its last element is taken.
///
/// For what a reader must hold until the end of its input (the rows of a report whose later
/// sections finish its earlier ones): memory is what the elements need, not twice that.
public struct ChunkedList<Element> {
    private var chunks: [[Element]] = []
    /// The chunk `popFirst` takes from, and the element in it.
    private var head = 0
    private var offset = 0
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

    /// The first element, taken out of the list (nil when it is empty); the chunk it was in is
    /// freed once its last element is taken.
    public mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = chunks[head][offset]
        offset += 1
        count -= 1
        if count == 0 {
            chunks = []
            head = 0
            offset = 0
        } else if offset == chunkSize {
            chunks[head] = []
            head += 1
            offset = 0
        }
        return element
    }
}

extension ChunkedList: Sendable where Element: Sendable {}
