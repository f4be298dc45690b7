import Foundation

/// Where the operations prepared from one stretch of a source keep their bytes, ids and changes:
/// made before them, sealed once by the thread that prepared them (`seal`), then only read. When
/// the conversion is done with its operations, it gives its bytes' memory back to `memory`.
public final class PreparedStore: @unchecked Sendable {
    /// Where the operations were read, without a row.
    public let origin: SourceLocation
    private var sealed: PreparedParts?
    private let memory: PreparedMemory?

    public init(origin: SourceLocation, memory: PreparedMemory? = nil) {
        self.origin = origin.atRow(0)
        self.memory = memory
    }

    /// Takes what was prepared for it, before any of its operations is handed on.
    public func seal(_ parts: consuming PreparedParts) {
        sealed = consume parts
    }

    var parts: PreparedParts {
        _read { yield sealed! }
    }

    deinit {
        if let memory, let parts = sealed.take() { memory.give(parts.bytes.takeMemory()) }
    }
}
