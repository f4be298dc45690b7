import TradeportCore

/// An amount in one commodity.
struct LedgerAmount {
    var number: ExactDecimal
    var asset: AssetCode
}

/// How a posting's units are valued.
enum LedgerCost {
    case none
    /// At a total price, without lots (hledger's `@@`).
    case totalPrice(LedgerAmount)
    /// A new lot at a cost per unit (beancount's `{x CUR}`).
    case lot(LedgerAmount)
    /// A new lot at a total cost (beancount's `{{x CUR}}`), when the cost per unit is not a
    /// finite decimal.
    case lotTotal(LedgerAmount)
    /// Closing lots held, first in first out, sold or bought back at `price` per unit
    /// (beancount's `{} @ x CUR`).
    case closing(price: LedgerAmount)
    /// Closing lots held, first in first out, whose cost is in `currency`, another than the
    /// trade's (beancount's `{CUR}`, with no price: Beancount wants a price in the cost's
    /// currency, and infers the cost's currency from the price's when it is not named).
    case closingCostIn(AssetCode)
}

struct LedgerPosting {
    var account: String
    /// Nil: the tool fills it in (the gain of lots closed).
    var amount: LedgerAmount?
    var cost: LedgerCost = .none
}

/// One double-entry transaction.
struct LedgerEntry {
    var date: CalendarDate
    var narration: String
    /// Key and value, in order.
    var meta: [(String, String)]
    var postings: [LedgerPosting]
}
