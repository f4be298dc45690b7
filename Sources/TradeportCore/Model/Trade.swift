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
        /// A bond's price as quoted, in percent of its nominal.
        public var pricePercent: ExactDecimal?
        /// A bond's nominal per unit at the deal, in quote.
        public var nominal: ExactDecimal?
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
        settlementDate: CalendarDate? = nil, account: String? = nil, orderId: String? = nil,
        pricePercent: ExactDecimal? = nil, nominal: ExactDecimal? = nil, source: SourceLocation
    ) {
        storage = SharedFields(
            Fields(
                id: id, externalId: externalId, time: time, side: side, base: base, quote: quote, quantity: quantity, price: price, amount: amount,
                accruedInterest: accruedInterest, fees: fees, isin: isin, name: name, venue: venue, settlementDate: settlementDate, account: account,
                orderId: orderId, pricePercent: pricePercent, nominal: nominal, source: source))
    }

    public static let kind = OperationKind.trade
    public static let layout = RecordLayout<Trade>()
    public static let placeholder = Trade(
        externalId: nil, time: Timestamp(secondsSinceEpoch: 0), side: .buy, base: AssetCode.placeholder, quote: AssetCode.placeholder,
        quantity: ExactDecimal(1), price: .zero, amount: nil, source: .nowhere)

    @inlinable
    public subscript(field: TradeField) -> FieldValue {
        @inline(__always)
        get { storage.fields[field] }
        set {
            var fields = storage.fields
            fields[field] = newValue
            storage = SharedFields(fields)
        }
    }

    /// A record with each field's value from `value` (see `CanonicalRecord.make`), built in one go.
    @inlinable
    public static func make<E: Error>(_ value: (TradeField) throws(E) -> FieldValue) throws(E) -> Trade {
        var fields = placeholder.fields
        for field in layout.fields { fields[field] = try value(field) }
        return Trade(fields: fields)
    }
}

extension Trade.Fields {
    /// A field's value, read and set by the table's enum: the one place each field is matched
    /// to its stored property (the build fails until a new case is written here).
    @inlinable
    public subscript(field: TradeField) -> FieldValue {
        @inline(__always)
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
            case .pricePercent: return .decimal(pricePercent)
            case .nominal: return .decimal(nominal)
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
            case .pricePercent: pricePercent = newValue.decimal
            case .nominal: nominal = newValue.decimal
            case .source: if case .location(let l) = newValue { source = l }
            }
        }
    }
}
