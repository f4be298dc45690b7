/// `balance:`: the balance a file prints on its rows, which the reading is checked against — the
/// amount column and the asset it is of (a column, or a constant for a one-currency account). The
/// operations read are replayed in the file's time order (newest first or oldest first, as the file
/// runs) and compared with what each time's rows print.
public struct BalanceRule: Sendable, Equatable {
    /// The decimal column holding the balance after the row.
    public var amount: String
    /// The asset the balance is of: `.column(name)` or `.constant(code)`.
    public var asset: FieldSource
    public var location: SpecLocation

    public init(amount: String, asset: FieldSource, location: SpecLocation) {
        self.amount = amount
        self.asset = asset
        self.location = location
    }
}
