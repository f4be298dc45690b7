import TradeportBalances
import TradeportCore

/// Where a statement's parameters go, one after the other: an SQLite statement straight
/// (`SQLiteDatabase.Parameters`), or a list of values (`SQLValueList`, for PostgreSQL). Records say
/// their values once (`StoredRecord.put`), for both.
protocol StatementParameters {
    mutating func null()
    mutating func integer(_ value: Int64)
    mutating func text(_ value: String)
    /// In the canonical text the store writes (`-0.0025`).
    mutating func decimal(_ value: ExactDecimal)
    /// `yyyy-MM-ddTHH:mm:ss`, always with seconds.
    mutating func dateTime(_ value: ServerDateTime)
}

extension StatementParameters {
    mutating func text(_ value: String?) {
        if let value { text(value) } else { null() }
    }

    mutating func decimal(_ value: ExactDecimal?) {
        if let value { decimal(value) } else { null() }
    }

    mutating func value(_ value: SQLValue) {
        switch value {
        case .null: null()
        case .integer(let v): integer(v)
        case .text(let t): text(t)
        }
    }
}
