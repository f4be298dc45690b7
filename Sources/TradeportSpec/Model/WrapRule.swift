/// `wrapped: {column: orderId, when-empty: date}`: a file that wraps a long value onto a line of
/// its own (DEGIRO's export puts the end of a long Order Id on the next line, every other cell
/// empty). Such a line's text is joined to the value of the row above, which is read with it; the
/// line itself is then what the spec's skip rules say it is.
public struct WrapRule: Sendable, Equatable {
    /// The column whose value is wrapped.
    public var column: String
    /// A column that is always filled on a row of its own, empty on a wrapped line.
    public var marker: String
    public var location: SpecLocation

    public init(column: String, marker: String, location: SpecLocation) {
        self.column = column
        self.marker = marker
        self.location = location
    }
}
