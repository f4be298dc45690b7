public struct FeeMapping: Sendable, Equatable {
    public var amount: FieldSource
    public var currency: FieldSource
    public var kind: String
}
