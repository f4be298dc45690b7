/// A fee charged on a trade, in its own currency.
public struct TradeFee: Sendable, Hashable {
    public var amount: ExactDecimal
    public var currency: AssetCode
    public var kind: FeeKind

    public init(amount: ExactDecimal, currency: AssetCode, kind: FeeKind) {
        self.amount = amount
        self.currency = currency
        self.kind = kind
    }
}

/// A deal: `quantity` of `base` bought or sold at `price` in `quote`. Its fields are those of
/// `TradeField`, the table that says what each one is.
public struct Trade: CanonicalRecord {
    /// Stable across runs: `<format>:<venue id>`, or a content hash with an occurrence number.
    /// Readers leave it empty; the conversion assigns it (see `OperationIdentity`).
    public var id: String
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
    /// The source's sub-account the trade was made in.
    public var account: String?
    /// The venue's order id.
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

    public static let kind = OperationKind.trade
    public static let layout = RecordLayout<Trade>()
    public static let placeholder = Trade(
        externalId: nil, time: Timestamp(secondsSinceEpoch: 0), side: .buy, base: AssetCode.placeholder, quote: AssetCode.placeholder,
        quantity: ExactDecimal(1), price: .zero, amount: nil, source: .nowhere)

    public subscript(field: TradeField) -> FieldValue {
        get {
            switch field {
            case .id: return .text(id)
            case .externalId: return .text(externalId)
            case .time: return .time(time)
            case .side: return .text(side.rawValue)
            case .base: return .asset(base)
            case .quote: return .asset(quote)
            case .quantity: return .decimal(quantity)
            case .price: return .decimal(price)
            case .amount: return .decimal(amount)
            case .accruedInterest: return .decimal(accruedInterest)
            case .fees: return .tradeFees(fees)
            case .isin: return .text(isin)
            case .name: return .text(name)
            case .venue: return .text(venue)
            case .settlementDate: return .date(settlementDate)
            case .account: return .text(account)
            case .orderId: return .text(orderId)
            case .source: return .location(source)
            }
        }
        set {
            switch field {
            case .id: id = newValue.text ?? ""
            case .externalId: externalId = newValue.text
            case .time: time = newValue.time!
            case .side: side = TradeSide(rawValue: newValue.text!)!
            case .base: base = newValue.asset!
            case .quote: quote = newValue.asset!
            case .quantity: quantity = newValue.decimal!
            case .price: price = newValue.decimal!
            case .amount: amount = newValue.decimal
            case .accruedInterest: accruedInterest = newValue.decimal
            case .fees: if case .tradeFees(let f) = newValue { fees = f } else { fees = [] }
            case .isin: isin = newValue.text
            case .name: name = newValue.text
            case .venue: venue = newValue.text
            case .settlementDate: settlementDate = newValue.date
            case .account: account = newValue.text
            case .orderId: orderId = newValue.text
            case .source: if case .location(let l) = newValue { source = l }
            }
        }
    }
}
