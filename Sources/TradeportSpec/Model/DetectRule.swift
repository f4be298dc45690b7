/// How detection recognizes the format from a file's first lines.
public struct DetectRule: Sendable, Equatable {
    /// Columns whose values must read well in most of the first lines.
    public var fit: [String]
    /// Header texts that must be present (for sources with a header): each entry is one text or
    /// its alternatives (the languages of one column's name), any one of which will do.
    public var header: [[String]]
}
