/// The rows of one value of `rows.by` that are transactions, and of which type: one, or several
/// (one row giving a dividend and its withholding tax: the second and later are made only where
/// their amount is present and not zero).
public struct RowTransaction: Sendable, Equatable {
    public var value: String
    public var types: [TypeRule]

    public init(value: String, types: [TypeRule]) {
        self.value = value
        self.types = types
    }
}
