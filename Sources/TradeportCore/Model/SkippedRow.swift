/// A row that was read and deliberately not turned into an operation.
public struct SkippedRow: Sendable, Hashable, Decodable {
    public var source: SourceLocation
    public var reason: String

    public init(source: SourceLocation, reason: String) {
        self.source = source
        self.reason = reason
    }
}
