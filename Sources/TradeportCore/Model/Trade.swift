/// Which way a trade went: the base asset was bought or sold.
public enum TradeSide: String, Sendable, Hashable, Decodable {
    case buy, sell
}

/// Who charged a fee.
public enum FeeKind: String, Sendable, Hashable, Decodable, CaseIterable {
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
@dynamicMemberLookup
public struct Trade: Sendable, Hashable, Decodable {
    /// The fields, stored once and shared between copies until one is changed: an operation is
    /// copied several times on its way from an adapter to a sink, and this makes a copy one
    /// reference count instead of one per field.
    public struct Fields: Sendable, Hashable, Decodable {
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

    public init(from decoder: any Decoder) throws { self.init(fields: try Fields(from: decoder)) }
}
