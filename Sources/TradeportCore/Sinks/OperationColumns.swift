/// tradeport's own row layout (`tradeport-csv`, `tradeport-xlsx`): one row per operation under a
/// header of canonical field names. The one place its columns and the field each holds are named;
/// the CSV and XLSX sinks only format the values.
public enum OperationColumns {
    /// The columns, in order: trades fill the trade fields, transactions theirs.
    public static let names = [
        "kind", "portfolio", "id", "externalId", "time", "side", "base", "quote", "quantity", "price", "amount",
        "accruedInterest", "fee.broker", "fee.broker.currency", "fee.exchange", "fee.exchange.currency", "fee.clearing",
        "fee.clearing.currency", "fee.other", "fee.other.currency", "isin", "name", "venue", "settlementDate", "account",
        "orderId", "type", "asset", "fee", "feeCurrency", "status", "security", "note", "counterparty", "txHash", "address",
    ]

    /// One field's value, typed, so that each sink writes it in its own way.
    public enum Value {
        case text(String)
        case decimal(ExactDecimal)
        case time(Timestamp)
        case date(CalendarDate)
    }

    // Column numbers, in the order of `names`.
    private static let (kind, portfolioColumn, id, externalId, time, side, base, quote, quantity, price, amount) = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    private static let (accruedInterest, firstFee, isin, name, venue, settlementDate, account, orderId) = (11, 12, 20, 21, 22, 23, 24, 25)
    private static let (type, asset, fee, feeCurrency, status, security, note, counterparty, txHash, address) = (26, 27, 28, 29, 30, 31, 32, 33, 34, 35)
    /// Fee columns come in pairs (amount, currency) in this order of kinds.
    private static let feeKinds: [FeeKind] = [.broker, .exchange, .clearing, .other]

    /// Calls `body` with each field the operation has, in column order: its column number (an
    /// index into `names`) and its value. Absent fields are not called; a trade with two fees of
    /// one kind shows the last.
    public static func forEachField(
        of operation: Operation, portfolio: String, _ body: (Int, Value) throws -> Void
    ) rethrows {
        switch operation {
        case .trade(let t):
            try body(kind, .text("trade"))
            try body(portfolioColumn, .text(portfolio))
            try text(id, t.id, body); try text(externalId, t.externalId, body)
            try body(time, .time(t.time))
            try body(side, .text(t.side.rawValue)); try body(base, .text(t.base.text)); try body(quote, .text(t.quote.text))
            try body(quantity, .decimal(t.quantity)); try body(price, .decimal(t.price))
            try decimal(amount, t.amount, body); try decimal(accruedInterest, t.accruedInterest, body)
            for (k, feeKind) in feeKinds.enumerated() {
                guard let fee = t.fees.last(where: { $0.kind == feeKind }) else { continue }
                try body(firstFee + 2 * k, .decimal(fee.amount))
                try body(firstFee + 2 * k + 1, .text(fee.currency.text))
            }
            try text(isin, t.isin, body); try text(name, t.name, body); try text(venue, t.venue, body)
            if let d = t.settlementDate { try body(settlementDate, .date(d)) }
            try text(account, t.account, body); try text(orderId, t.orderId, body)
        case .transaction(let t):
            try body(kind, .text("transaction"))
            try body(portfolioColumn, .text(portfolio))
            try text(id, t.id, body); try text(externalId, t.externalId, body)
            try body(time, .time(t.time))
            try body(amount, .decimal(t.amount))
            try text(account, t.account, body)
            try body(type, .text(t.type.rawValue)); try body(asset, .text(t.asset.text))
            if let f = t.fee {
                try body(fee, .decimal(f.amount))
                try body(feeCurrency, .text(f.currency.text))
            }
            try body(status, .text(t.status.rawValue)); try text(security, t.security, body); try text(note, t.note, body)
            try text(counterparty, t.counterparty, body); try text(txHash, t.txHash, body); try text(address, t.address, body)
        }
    }

    private static func text(_ column: Int, _ value: String?, _ body: (Int, Value) throws -> Void) rethrows {
        if let value { try body(column, .text(value)) }
    }

    private static func decimal(_ column: Int, _ value: ExactDecimal?, _ body: (Int, Value) throws -> Void) rethrows {
        if let value { try body(column, .decimal(value)) }
    }
}
