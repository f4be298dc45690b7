/// One portfolio operation: a trade, a cash transaction or a movement of a position without
/// money. (Named apart from Foundation's `Operation`.)
public enum PortfolioOperation: Sendable, Hashable {
    case trade(Trade)
    case transaction(CashTransaction)
    case movement(Movement)

    /// Which kind of operation this is.
    public var kind: OperationKind {
        switch self {
        case .trade: return .trade
        case .transaction: return .transaction
        case .movement: return .movement
        }
    }

    public var id: String {
        get {
            switch self {
            case .trade(let t): return t.id
            case .transaction(let t): return t.id
            case .movement(let m): return m.id
            }
        }
        set {
            switch self {
            case .trade(var t):
                t.id = newValue
                self = .trade(t)
            case .transaction(var t):
                t.id = newValue
                self = .transaction(t)
            case .movement(var m):
                m.id = newValue
                self = .movement(m)
            }
        }
    }

    public var externalId: String? {
        switch self {
        case .trade(let t): return t.externalId
        case .transaction(let t): return t.externalId
        case .movement(let m): return m.externalId
        }
    }

    public var time: Timestamp {
        switch self {
        case .trade(let t): return t.time
        case .transaction(let t): return t.time
        case .movement(let m): return m.time
        }
    }

    public var source: SourceLocation {
        switch self {
        case .trade(let t): return t.source
        case .transaction(let t): return t.source
        case .movement(let m): return m.source
        }
    }

    /// The source's sub-account, which `--split-accounts` turns into a portfolio.
    public var account: String? {
        switch self {
        case .trade(let t): return t.account
        case .transaction(let t): return t.account
        case .movement(let m): return m.account
        }
    }
}

extension PortfolioOperation {
    /// What the operation does to balances: every asset it moves, with the signed change (nil when
    /// the change does not fit in 38 digits). A trade moves its base by the quantity and its quote
    /// by the amount (or quantity × price) with accrued interest, and each fee's currency; a
    /// complete transaction moves its asset in the type's direction, and its fee's currency; a
    /// movement moves its asset by its quantity in its direction. `money` says whether the asset
    /// moves as money (a quote, a fee, a transaction's asset) or as a position (what a trade bought
    /// or sold, what a movement moved).
    @inlinable
    public func forEachBalanceChange(_ body: (_ asset: AssetCode, _ change: ExactDecimal?, _ money: Bool) -> Void) {
        switch self {
        case .trade(let t):
            Self.forEachTradeChange(
                buy: t.side == .buy, base: t.base, quote: t.quote, quantity: t.quantity, price: t.price,
                amount: t.amount, accruedInterest: t.accruedInterest, fees: t.fees, body)
        case .transaction(let t):
            guard t.status == .complete else { return }
            body(t.asset, t.type.isIncoming ? t.amount : t.amount.negated, true)
            if let fee = t.fee { body(fee.currency, fee.amount.negated, true) }
        case .movement(let m):
            body(m.asset, m.direction.isIncoming ? m.quantity : m.quantity.negated, false)
        }
    }

    /// What a trade does to balances (see `forEachBalanceChange`), from its fields.
    @inlinable
    public static func forEachTradeChange(
        buy: Bool, base: AssetCode, quote: AssetCode, quantity: ExactDecimal, price: ExactDecimal, amount: ExactDecimal?,
        accruedInterest: ExactDecimal?, fees: [TradeFee], _ body: (_ asset: AssetCode, _ change: ExactDecimal?, _ money: Bool) -> Void
    ) {
        body(base, buy ? quantity : quantity.negated, false)
        var value = amount ?? quantity.multiplied(by: price)
        if let accruedInterest { value = value?.adding(accruedInterest) }
        body(quote, value.map { buy ? $0.negated : $0 }, true)
        for fee in fees { body(fee.currency, fee.amount.negated, true) }
    }
}
