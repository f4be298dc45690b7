/// `layouts:`: another column order rows of a file may come in, under a header of an older one (a
/// 2025 export's rows appended under a 2023 header): a row whose cell at `position` matches
/// `matches` is read by `header`'s order, not the file's header's.
public struct LayoutRule: Sendable, Equatable {
    /// What the layout is, for messages and `formats show`.
    public var about: String
    /// The 1-based column whose cell tells the layout's rows.
    public var position: Int
    /// The pattern that cell matches on the layout's rows (`match:`'s checked subset).
    public var matches: String
    /// The layout's header texts, in its order.
    public var header: [String]
    public var location: SpecLocation

    public init(about: String, position: Int, matches: String, header: [String], location: SpecLocation) {
        self.about = about
        self.position = position
        self.matches = matches
        self.header = header
        self.location = location
    }
}
