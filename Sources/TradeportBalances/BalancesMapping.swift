import TradeportCore

/// How canonical operations become the server's records (documented in the README).
///
/// - A trade: instrument `base-quote` lower case; quantity and price as they are; its fees summed
///   into one commission when they share a currency (commission 0 in the quote currency when it
///   has none). Fees in more than one currency have no faithful form (one commission, one
///   currency): such a trade is not sent and is reported.
/// - A cash transaction: `Deposit` when money comes in, `Withdraw` when it goes out (by the type's
///   direction); its fee as the commission when it is in the transaction's own currency (the
///   server's commission has no currency), otherwise not sent and reported. Only complete
///   transactions are sent.
/// - An asset code with punctuation (`BRK.B`, `TGLD@`): the server's codes are letters and
///   digits, so such an operation is not sent and is reported.
/// - A movement (a change of a position without money) has no server record: it is not sent,
///   and counted.
/// - The value id (`tradeValueId`/`transactionValueId`) is the operation's external id, or its
///   canonical id when it has none: what makes re-runs idempotent.
/// - `dateTime` is the operation's time in UTC, with seconds.
public enum BalancesMapping {
    /// Why an operation is not sent.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public let operationId: String
        public let source: SourceLocation
        public let reason: String
        public var description: String { "\(source): \(operationId): \(reason)" }
    }

    /// The trade fields a server record carries (what `record(_:)` reads of a trade).
    public static let carriedTradeFields: Set<TradeField> = [.id, .externalId, .time, .side, .base, .quote, .quantity, .price, .fees]
    /// The transaction fields a server record carries (what `record(_:)` reads of a transaction).
    public static let carriedTransactionFields: Set<TransactionField> = [.id, .externalId, .time, .type, .asset, .amount, .fee, .status]

    /// The fields of a kind the server has no place for, in the table's order: every field of
    /// `table` (the kind's own by default) that is not carried, except where it was read.
    public static func notCarried(_ kind: OperationKind, table: [FieldEntry]? = nil) -> [String] {
        let carried: Set<String>
        switch kind {
        case .trade: carried = Set(carriedTradeFields.map(\.rawValue))
        case .transaction: carried = Set(carriedTransactionFields.map(\.rawValue))
        case .movement: carried = []
        }
        return (table ?? kind.fields).filter { $0.definition.type != .location && !carried.contains($0.name) }.map(\.name)
    }

    /// What push says is not carried (the README's sentence): each kind's fields not carried,
    /// and the source locations.
    public static var notCarriedSummary: String {
        let kinds = OperationKind.allCases.filter { $0 != .movement }.map { kind in
            "a \(kind.rawValue)'s " + notCarried(kind).map { "`\($0)`" }.joined(separator: ", ")
        }
        return "Not carried, since the server has no field for them: " + kinds.joined(separator: "; ") + "; the source locations; "
            + "movements (changes of positions without money) as a whole, since the server has no record for them: they are counted, not sent."
    }

    public static func valueId(_ operation: PortfolioOperation) -> String {
        operation.externalId ?? operation.id
    }

    public static func record(_ trade: Trade) -> Result<TradeRecord, Refusal> {
        if let code = ([trade.base, trade.quote] + trade.fees.map(\.currency)).first(where: { !$0.isPlain }) {
            return .failure(plainCodesOnly(code, trade.id, trade.source))
        }
        var commission = ExactDecimal.zero
        var commissionCurrency = trade.quote
        let fees = trade.fees
        if let first = fees.first {
            commissionCurrency = first.currency
            guard fees.allSatisfy({ $0.currency == first.currency }) else {
                let currencies = Set(fees.map(\.currency.text)).sorted().joined(separator: ", ")
                return .failure(
                    Refusal(
                        operationId: trade.id, source: trade.source,
                        reason: "fees in more than one currency (\(currencies)); the server holds one commission in one currency"))
            }
            for fee in fees {
                guard let sum = commission.adding(fee.amount) else {
                    return .failure(Refusal(operationId: trade.id, source: trade.source, reason: "the fees' sum does not fit in 38 digits"))
                }
                commission = sum
            }
        }
        return .success(
            TradeRecord(
                dateTime: ServerDateTime(utc: trade.time),
                instrument: "\(trade.base.text.lowercased())-\(trade.quote.text.lowercased())",
                tradeType: trade.side == .buy ? .buy : .sell,
                tradedQuantity: trade.quantity, tradedQuantityCurrency: trade.base.text.lowercased(),
                tradedPrice: trade.price, tradedPriceCurrency: trade.quote.text.lowercased(),
                commission: commission, commissionCurrency: commissionCurrency.text.lowercased(),
                tradeValueId: valueId(.trade(trade))))
    }

    /// The record for a complete transaction; `nil` for one that is not complete (never sent).
    public static func record(_ transaction: CashTransaction) -> Result<TransactionRecord, Refusal>? {
        guard transaction.status == .complete else { return nil }
        if let code = ([transaction.asset] + (transaction.fee.map { [$0.currency] } ?? [])).first(where: { !$0.isPlain }) {
            return .failure(plainCodesOnly(code, transaction.id, transaction.source))
        }
        var commission = ExactDecimal.zero
        if let fee = transaction.fee {
            guard fee.currency == transaction.asset || fee.amount.isZero else {
                return .failure(
                    Refusal(
                        operationId: transaction.id, source: transaction.source,
                        reason: "its fee is in \(fee.currency), not in \(transaction.asset); the server's commission has no currency of its own"))
            }
            commission = fee.amount
        }
        return .success(
            TransactionRecord(
                dateTime: ServerDateTime(utc: transaction.time),
                transactionType: transaction.type.isIncoming ? .deposit : .withdraw,
                currency: transaction.asset.text.lowercased(), amount: transaction.amount, commission: commission,
                transactionValueId: valueId(.transaction(transaction))))
    }

    /// The refusal of a code with punctuation (`BRK.B`, `TGLD@`): the server's codes are letters
    /// and digits, and its instrument is two of them joined by `-`. Dropping or replacing the
    /// punctuation could make one security's code another's, so the operation is not sent.
    static func plainCodesOnly(_ code: AssetCode, _ id: String, _ source: SourceLocation) -> Refusal {
        Refusal(
            operationId: id, source: source,
            reason: "its asset code '\(code)' has characters other than letters and digits, which the server's codes do not take")
    }

    /// A portfolio's operations as the server's records.
    public struct Records: Sendable {
        public var trades: [TradeRecord] = []
        public var transactions: [TransactionRecord] = []
        /// The operations that cannot be mapped, trades first, each with why.
        public var refusals: [Refusal] = []
        /// Transactions not complete: never sent.
        public var incomplete = 0
        /// Movements: the server has no record for them, so they are counted, not sent.
        public var movements = 0
    }

    /// What becomes of one operation on the server.
    public enum Mapped: Sendable {
        case trade(TradeRecord)
        case transaction(TransactionRecord)
        /// Not sent: it cannot be mapped (why).
        case refused(Refusal)
        /// A transaction that is not complete: never sent.
        case incomplete
        /// A movement: the server has no record for it.
        case movement
    }

    /// What becomes of `operation` on the server.
    public static func map(_ operation: PortfolioOperation) -> Mapped {
        switch operation {
        case .trade(let t):
            switch record(t) {
            case .success(let r): return .trade(r)
            case .failure(let refusal): return .refused(refusal)
            }
        case .transaction(let t):
            switch record(t) {
            case .success(let r)?: return .transaction(r)
            case .failure(let refusal)?: return .refused(refusal)
            case nil: return .incomplete
            }
        case .movement:
            return .movement
        }
    }

    /// Maps every operation of `portfolio`, in order (trades, then transactions, then movements).
    public static func records(of portfolio: Portfolio) -> Records {
        var result = Records()
        result.trades.reserveCapacity(portfolio.trades.count)
        result.transactions.reserveCapacity(portfolio.transactions.count)
        for t in portfolio.trades { result.add(map(.trade(t))) }
        for t in portfolio.transactions { result.add(map(.transaction(t))) }
        for m in portfolio.movements { result.add(map(.movement(m))) }
        return result
    }
}

extension BalancesMapping.Records {
    /// Counts one operation's mapping in.
    public mutating func add(_ mapped: BalancesMapping.Mapped) {
        switch mapped {
        case .trade(let r): trades.append(r)
        case .transaction(let r): transactions.append(r)
        case .refused(let refusal): refusals.append(refusal)
        case .incomplete: incomplete += 1
        case .movement: movements += 1
        }
    }
}
