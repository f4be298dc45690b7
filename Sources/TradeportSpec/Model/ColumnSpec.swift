public struct ColumnSpec: Sendable, Equatable {
    public enum Reference: Sendable, Equatable {
        /// A header text and its aliases, compared without case, spaces and line breaks.
        case header([String])
        /// 1-based.
        case position(Int)
        /// The same cell as another column (read with a `match` of its own).
        case from(String)
    }
    public enum Required: Sendable, Equatable {
        case yes
        case no
        /// May be empty only when the named decimal column is zero.
        case unlessZero(String)
    }
    public var name: String
    public var reference: Reference
    public var required: Required
    public var type: ValueType
    /// What a good value looks like, for messages (`0,0025`).
    public var example: String?
    /// The separator of several values in one cell (`list: ";"`): each read as the column's type,
    /// for a field that holds several (a trade's fees of one kind). Nil: one value per cell.
    public var list: String?
    /// A regular expression the cell's text is searched with: the value is its group named
    /// `value`, else its first group, else the whole match; no match is an empty value.
    public var match: String?
    /// Texts that stand for an empty cell in this column (besides the spec's `values.empty`).
    public var empty: [String] = []
    /// The kinds of rows (trade, transaction, movement) this column is read on; nil: every row.
    public var kinds: [String]?
    /// A decimal column's own decimal separator (`.` or `,`; 0 for either), with spaces grouping
    /// thousands, where it differs from the spec's `values` (a price inside a description).
    public var decimal: UInt8?
    public var location: SpecLocation

    public init(
        name: String, reference: Reference, required: Required, type: ValueType, example: String? = nil,
        list: String? = nil, match: String? = nil, empty: [String] = [], kinds: [String]? = nil, location: SpecLocation
    ) {
        self.name = name
        self.reference = reference
        self.required = required
        self.type = type
        self.example = example
        self.list = list
        self.match = match
        self.empty = empty
        self.kinds = kinds
        self.location = location
    }
}
