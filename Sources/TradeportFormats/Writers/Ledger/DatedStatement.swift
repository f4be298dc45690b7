import TradeportCore

/// A balance a source prints, as a ledger asserts it.
struct LedgerAssertion {
    var date: CalendarDate
    var account: String
    var amount: LedgerAmount
    var comment: String
}

/// An opening entry or an assertion, placed among the operations by its date.
enum DatedStatement {
    case entry(LedgerEntry)
    case assertion(LedgerAssertion)

    var date: CalendarDate {
        switch self {
        case .entry(let e): return e.date
        case .assertion(let a): return a.date
        }
    }
}
