extension Array where Element == UInt8 {
    /// `count` bytes whose values are not set, for a buffer that is only ever read where it was
    /// written (a read buffer the source fills). Unlike `[UInt8](repeating: 0, count:)` it writes
    /// nothing: the pages of a large buffer that a small input never reaches are neither zeroed
    /// nor touched (a conversion's 1 MiB read buffer, detection's buffers for every spec).
    @inlinable
    public init(uninitializedBytes count: Int) {
        self.init(unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
}
