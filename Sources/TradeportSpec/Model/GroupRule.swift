/// Rows that together make trades: consecutive rows of equal `key` (other rows may come between),
/// each a leg moving one asset by a signed amount. A leg whose amount is positive came in, one
/// whose amount is negative went out, a fee leg (by `fee`) is a fee; in-legs and out-legs pair in
/// file order into trades.
public struct GroupRule: Sendable, Equatable {
    public var key: [String]
    public var asset: String
    public var amount: String
    /// The rows that are fees: a column and its values.
    public var feeColumn: String?
    public var feeValues: [String]
    /// A column of each leg holding a fee charged in the leg's asset (Kraken's ledger `fee`).
    public var legFee: String?
    /// Assets that are quotes, the first the strongest: of a pair's two assets, the one listed
    /// earlier is the quote; when neither is listed, the one that went out.
    public var quotes: [String]
    /// Digits after the point the price (quote amount ÷ base quantity) is rounded to.
    public var priceScale: Int
    public var location: SpecLocation

    public init(
        key: [String], asset: String, amount: String, feeColumn: String?, feeValues: [String], legFee: String?,
        quotes: [String], priceScale: Int, location: SpecLocation
    ) {
        self.key = key
        self.asset = asset
        self.amount = amount
        self.feeColumn = feeColumn
        self.feeValues = feeValues
        self.legFee = legFee
        self.quotes = quotes
        self.priceScale = priceScale
        self.location = location
    }

    /// The trade fields a group gives (the `trade:` mapping gives the others, from the group's first row).
    public static let givenFields = ["side", "base", "quote", "quantity", "price", "amount", "fees"]
}
