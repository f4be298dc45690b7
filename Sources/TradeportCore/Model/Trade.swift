/// Which way a trade went: the base asset was bought or sold.
public enum TradeSide: String, Sendable, Hashable, Decodable {
    case buy, sell
}

/// Who charged a fee.
public enum FeeKind: String, Sendable, Hashable, Decodable {
    case broker, exchange, clearing, other
}

/// A fee charged on a trade, in its own currency.
public struct TradeFee: Sendable, Hashable, Decodable {
    public var amount: ExactDecimal
    public var currency: AssetCode
    public var kind: FeeKind

    public init(amount: ExactDecimal, currency: AssetCode, kind: FeeKind) {
        self.amount = amount
        self.currency = currency
        self.kind = kind
    }
}

/// A deal: `quantity` of `base` bought or sold at `price` in `quote`.
public struct Trade: Sendable, Hashable, Decodable {
    /// Stable across runs: `<format>:<venue id>`, or a content hash with an occurrence number.
    /// Adapters leave it empty; the conversion assigns it (see `OperationIdentity`).
    public var id: String
    /// The venue's own id (DSX trade id, Tinkoff deal number).
    public var externalId: String?
    public var time: Timestamp
    public var side: TradeSide
    public var base: AssetCode
    public var quote: AssetCode
    /// In base units, > 0.
    public var quantity: ExactDecimal
    /// Quote per base unit, ≥ 0.
    public var price: ExactDecimal
    /// The deal's value in quote as the source states it, without accrued interest.
    public var amount: ExactDecimal?
    /// Accrued interest on bonds (НКД).
    public var accruedInterest: ExactDecimal?
    public var fees: [TradeFee]
    public var isin: String?
    public var name: String?
    public var venue: String?
    public var settlementDate: CalendarDate?
    /// The source's sub-account the trade was made in (an addition to the model's fields).
    public var account: String?
    /// The venue's order id (an addition to the model's fields).
    public var orderId: String?
    public var source: SourceLocation

    public init(
        id: String = "", externalId: String?, time: Timestamp, side: TradeSide, base: AssetCode, quote: AssetCode,
        quantity: ExactDecimal, price: ExactDecimal, amount: ExactDecimal?, accruedInterest: ExactDecimal? = nil,
        fees: [TradeFee] = [], isin: String? = nil, name: String? = nil, venue: String? = nil,
        settlementDate: CalendarDate? = nil, account: String? = nil, orderId: String? = nil, source: SourceLocation
    ) {
        self.id = id
        self.externalId = externalId
        self.time = time
        self.side = side
        self.base = base
        self.quote = quote
        self.quantity = quantity
        self.price = price
        self.amount = amount
        self.accruedInterest = accruedInterest
        self.fees = fees
        self.isin = isin
        self.name = name
        self.venue = venue
        self.settlementDate = settlementDate
        self.account = account
        self.orderId = orderId
        self.source = source
    }
}
