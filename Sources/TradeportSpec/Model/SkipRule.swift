/// Rows whose `column` holds one of `equals` are skipped with `reason`.
public struct SkipRule: Sendable, Equatable {
    public var column: String
    public var equals: [String]
    public var reason: String
    /// Further conditions, all of which must hold too (`and: [{column, equals}]`).
    public var and: [SkipCondition] = []
    public var location: SpecLocation
}
