public struct CSVSource: Sendable, Equatable {
    public enum Delimiter: Sendable, Equatable {
        case byte(UInt8)
        /// Sniffed from the first lines.
        case auto
    }
    public var delimiter: Delimiter
    /// nil: fields are never quoted.
    public var quote: UInt8?
    public var encoding: TextEncoding
    /// Lines before the header (or the data), skipped.
    public var skipLines: Int
    public var header: HeaderRule
    /// An exact number of fields per line, when the format has one.
    public var fields: Int?
}
