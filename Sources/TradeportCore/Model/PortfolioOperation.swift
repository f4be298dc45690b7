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
            Self.forEachTradeChange(buy: t.side == .buy, base: t.base, quote: t.quote, quantity: t.quantity, price: t.price,
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

/// A row that was read and deliberately not turned into an operation.
public struct SkippedRow: Sendable, Hashable, Decodable {
    public var source: SourceLocation
    public var reason: String

    public init(source: SourceLocation, reason: String) {
        self.source = source
        self.reason = reason
    }
}

/// One thing wrong with a row: which column (1-based) or field, and what was expected.
public struct FieldError: Sendable, Hashable, Decodable, Error {
    public var column: Int?
    public var field: String?
    public var message: String

    public init(column: Int?, field: String?, message: String) {
        self.column = column
        self.field = field
        self.message = message
    }
}

/// A row that could not be read, with its raw text and every error found in it.
public struct RejectedRow: Sendable, Hashable, Decodable {
    public var source: SourceLocation
    public var raw: String
    public var errors: [FieldError]

    /// `raw` is kept up to `rawLimit` bytes: a row of megabytes is named, not copied into every
    /// output that lists rejects.
    public init(source: SourceLocation, raw: String, errors: [FieldError]) {
        self.source = source
        self.raw = Self.capped(raw)
        self.errors = errors
    }

    /// The most bytes of a row's raw text a reject carries.
    public static let rawLimit = 4096

    /// `raw` cut at `rawLimit` bytes (at a character's start), marked with its whole length.
    public static func capped(_ raw: String) -> String {
        let utf8 = raw.utf8
        guard utf8.count > rawLimit else { return raw }
        var end = utf8.index(utf8.startIndex, offsetBy: rawLimit)
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(decoding: utf8[utf8.startIndex..<end], as: UTF8.self) + " … [cut: \(utf8.count) bytes in all]"
    }
}

/// Something true of the whole conversion that a user should look at.
public struct ConversionWarning: Sendable, Hashable, Decodable {
    public var code: String
    public var message: String
    public var source: SourceLocation?

    public init(code: String, message: String, source: SourceLocation?) {
        self.code = code
        self.message = message
        self.source = source
    }
}

/// What an reader makes of one data row: exactly one of these per row.
public enum SourceRecord: Sendable {
    case operation(PortfolioOperation)
    /// An operation whose source names its portfolio (a spec's `portfolio` mapping): it goes
    /// there, whatever `--portfolio` and `--split-accounts` say for the rest.
    case placed(PortfolioOperation, portfolio: String)
    /// An operation from a row already handed on as one (a dividend row's withholding tax): not a
    /// row of its own, counted as `extra`; placed in `portfolio` when the source names one.
    case additional(PortfolioOperation, portfolio: String?)
    /// A row read into an operation another record carries (a leg of a trade spread over several
    /// rows): counted as `merged`.
    case merged(SourceLocation)
    case skipped(SkippedRow)
    case rejected(RejectedRow)
    /// A balance the source prints (an opening and a closing balance of one asset): not a row of
    /// its own (the row that prints it is also handed on, as a skip), but what the operations read
    /// are checked against. Only from an reader whose `printsBalances` is true.
    case statement(StatedBalance)
    /// Something the reader found true of the whole source that a user should look at (a currency
    /// a report left unprinted and the reader inferred): not a row; it joins the conversion's
    /// warnings.
    case warning(ConversionWarning)
}
