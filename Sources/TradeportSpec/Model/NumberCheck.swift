/// A check between numbers of a row (`checks: [{near: [a, b], within, message}]`): two values,
/// each a column or arithmetic over columns (`{mul: [quantity, price]}`), at most `within` apart —
/// the amount a row states against what its quantity and price make. A row where they differ
/// more is a reject naming both values; a row that leaves either empty is not checked.
public struct NumberCheck: Sendable, Equatable {
    public var a: FieldSource
    public var b: FieldSource
    /// How far apart the two may be, as written (`'0.01'`).
    public var within: String
    /// The kinds of rows checked (trade, transaction, movement); nil: every row.
    public var kinds: [String]?
    public var message: String
    public var location: SpecLocation

    public init(a: FieldSource, b: FieldSource, within: String, kinds: [String]?, message: String, location: SpecLocation) {
        self.a = a
        self.b = b
        self.within = within
        self.kinds = kinds
        self.message = message
        self.location = location
    }
}
