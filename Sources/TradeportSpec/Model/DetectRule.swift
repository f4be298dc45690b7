/// How detection recognizes the format from a file's first lines.
public struct DetectRule: Sendable, Equatable {
    /// Columns whose values must read well in most of the first lines.
    public var fit: [String]
    /// Header texts that must be present (for sources with a header).
    public var header: [String]
}
