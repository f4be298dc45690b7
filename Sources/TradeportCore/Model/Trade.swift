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
@dynamicMemberLookup
public struct Trade: CanonicalRecord {
    /// The fields, one stored property per row of `TradeField`. They are kept in one heap object that
    /// copies share until one of them changes (copy on write, as `Array` does): an operation is
    /// copied several times on its way from a reader to a writer, and a copy is then one reference
    /// count, not one per field.
    public struct Fields: Sendable, Hashable {
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
    }

    @usableFromInline
    var storage: SharedFields<Fields>

    /// All fields at once.
    @inlinable
    public var fields: Fields {
        get { storage.fields }
        set { storage = SharedFields(newValue) }
    }

    public init(fields: Fields) {
        storage = SharedFields(fields)
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.fields[keyPath: keyPath] }
        set { SharedFields.update(&storage, keyPath, newValue) }
    }

    public init(
        id: String = "", externalId: String?, time: Timestamp, side: TradeSide, base: AssetCode, quote: AssetCode,
        quantity: ExactDecimal, price: ExactDecimal, amount: ExactDecimal?, accruedInterest: ExactDecimal? = nil,
        fees: [TradeFee] = [], isin: String? = nil, name: String? = nil, venue: String? = nil,
        settlementDate: CalendarDate? = nil, account: String? = nil, orderId: String? = nil, source: SourceLocation
    ) {
        storage = SharedFields(Fields(id: id, externalId: externalId, time: time, side: side, base: base, quote: quote, quantity: quantity, price: price, amount: amount, accruedInterest: accruedInterest, fees: fees, isin: isin, name: name, venue: venue, settlementDate: settlementDate, account: account, orderId: orderId, source: source))
    }

    public static let kind = OperationKind.trade
    public static let layout = RecordLayout<Trade>()
    public static let placeholder = Trade(
        externalId: nil, time: Timestamp(secondsSinceEpoch: 0), side: .buy, base: AssetCode.placeholder, quote: AssetCode.placeholder,
        quantity: ExactDecimal(1), price: .zero, amount: nil, source: .nowhere)

    @inlinable
    public subscript(field: TradeField) -> FieldValue {
        @inline(__always)
        get {
            switch field {
            case .id: return .text(storage.fields.id)
            case .externalId: return .text(storage.fields.externalId)
            case .time: return .time(storage.fields.time)
            case .side: return .text(storage.fields.side.rawValue)
            case .base: return .asset(storage.fields.base)
            case .quote: return .asset(storage.fields.quote)
            case .quantity: return .decimal(storage.fields.quantity)
            case .price: return .decimal(storage.fields.price)
            case .amount: return .decimal(storage.fields.amount)
            case .accruedInterest: return .decimal(storage.fields.accruedInterest)
            case .fees: return .tradeFees(storage.fields.fees)
            case .isin: return .text(storage.fields.isin)
            case .name: return .text(storage.fields.name)
            case .venue: return .text(storage.fields.venue)
            case .settlementDate: return .date(storage.fields.settlementDate)
            case .account: return .text(storage.fields.account)
            case .orderId: return .text(storage.fields.orderId)
            case .source: return .location(storage.fields.source)
            }
        }
        set {
            switch field {
            case .id: self.id = newValue.text ?? ""
            case .externalId: self.externalId = newValue.text
            case .time: self.time = newValue.time!
            case .side: self.side = TradeSide(rawValue: newValue.text!)!
            case .base: self.base = newValue.asset!
            case .quote: self.quote = newValue.asset!
            case .quantity: self.quantity = newValue.decimal!
            case .price: self.price = newValue.decimal!
            case .amount: self.amount = newValue.decimal
            case .accruedInterest: self.accruedInterest = newValue.decimal
            case .fees: if case .tradeFees(let f) = newValue { self.fees = f } else { self.fees = [] }
            case .isin: self.isin = newValue.text
            case .name: self.name = newValue.text
            case .venue: self.venue = newValue.text
            case .settlementDate: self.settlementDate = newValue.date
            case .account: self.account = newValue.text
            case .orderId: self.orderId = newValue.text
            case .source: if case .location(let l) = newValue { self.source = l }
            }
        }
    }
}
