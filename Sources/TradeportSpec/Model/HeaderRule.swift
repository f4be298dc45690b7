public enum HeaderRule: Sendable, Equatable {
    /// No header: columns by position.
    case none
    /// The header is this 1-based row (after skipped lines, for CSV).
    case row(Int)
    /// The first row, within `within` rows, holding all these texts (compared without case,
    /// spaces and line breaks).
    case find([String], within: Int)
}
