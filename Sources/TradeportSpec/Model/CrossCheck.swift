/// A check across columns: `column` must equal the template (`{base}{quote}`), after lower-casing.
public struct CrossCheck: Sendable, Equatable {
    public var column: String
    public var equals: String
    public var lowercase: Bool
    public var message: String
    public var location: SpecLocation
}
