/// A column and the values that meet a condition (`""` is an empty cell).
public struct SkipCondition: Sendable, Equatable {
    public var column: String
    public var equals: [String]
}
