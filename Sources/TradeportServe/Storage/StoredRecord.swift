import TradeportBalances
import TradeportCore

/// A trade or a transaction as the store keeps it: its table's statements (constants, prepared
/// once and found again by their text; `?` placeholders, numbered for PostgreSQL), its values for
/// an insert, and how a row reads back. Both stores and the routes handle both kinds through this.
protocol StoredRecord: OperationRecord {
    /// `trade` or `transaction`, for messages.
    static var noun: String { get }
    /// A portfolio's records by id; binds the portfolio.
    static var selectAll: String { get }
    /// The value ids (column 0, NULL for none) of `selectAll`'s records, in its order.
    static var selectValueIds: String { get }
    /// One record; binds its id and the portfolio.
    static var selectById: String { get }
    /// The record holding a value key; binds the portfolio and the key.
    static var selectByValueKey: String { get }
    /// Binds the portfolio, then `bindings`, then the value key (the value id when the store
    /// deduplicates, else NULL). Stores nothing when the portfolio holds the key already (the
    /// database's unique index says so, whichever process asks). Returns nothing: SQLite tells
    /// what it did by its count of changes and last row id (with a `RETURNING` clause, a first
    /// push of 100,000 trades took 1.02 s of the server's CPU instead of 0.82 s);
    /// `insertReturningId` is the same returning the new row's id (PostgreSQL).
    static var insert: String { get }
    /// Binds the id and the portfolio.
    static var delete: String { get }
    /// Puts the values `insert` takes after the portfolio, in its order.
    func put(_ parameters: inout some StatementParameters)
    /// A row of one of the `select` statements.
    init(row: some StoredRow) throws
    /// The records of this kind an uploaded export holds.
    static func records(of export: UploadedExport) -> [Self]
}

extension StoredRecord {
    /// `insert` answering the new row's id (none when it stored nothing).
    static var insertReturningId: String { insert + " RETURNING id" }

    /// The values `insert` takes after the portfolio, as a list.
    var bindings: [SQLValue] {
        var list = SQLValueList()
        put(&list)
        return list.values
    }
}

extension TradeRecord: StoredRecord {
    static var noun: String { "trade" }

    private static let columns = """
        id, date_time, instrument, trade_type, traded_quantity, traded_quantity_currency, traded_price, \
        traded_price_currency, commission, commission_currency, value_id
        """
    static let selectAll = "SELECT \(columns) FROM trades WHERE portfolio_id = ? ORDER BY id"
    static let selectValueIds = "SELECT value_id FROM trades WHERE portfolio_id = ? ORDER BY id"
    static let selectById = "SELECT \(columns) FROM trades WHERE id = ? AND portfolio_id = ?"
    static let selectByValueKey = "SELECT \(columns) FROM trades WHERE portfolio_id = ? AND value_key = ?"
    static let insert = """
        INSERT INTO trades (portfolio_id, date_time, instrument, trade_type, traded_quantity, \
        traded_quantity_currency, traded_price, traded_price_currency, commission, commission_currency, value_id, value_key) \
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (portfolio_id, value_key) DO NOTHING
        """
    static let delete = "DELETE FROM trades WHERE id = ? AND portfolio_id = ?"

    func put(_ p: inout some StatementParameters) {
        p.dateTime(dateTime)
        p.text(instrument)
        p.text(tradeType.rawValue)
        p.decimal(tradedQuantity)
        p.text(tradedQuantityCurrency)
        p.decimal(tradedPrice)
        p.text(tradedPriceCurrency)
        p.decimal(commission)
        p.text(commissionCurrency)
        p.text(tradeValueId)
    }

    init(row: some StoredRow) throws {
        guard let dateTime = ServerDateTime(row.text(1)), let type = ServerTradeType(rawValue: row.text(3)),
            let quantity = row.optionalDecimal(4), let price = row.optionalDecimal(6)
        else { throw StorageError(.unreadableRow, table: "trades", "trade \(row.integer(0)) is stored in a form this server cannot read") }
        self.init(
            id: row.integer(0), dateTime: dateTime, instrument: row.text(2), tradeType: type,
            tradedQuantity: quantity, tradedQuantityCurrency: row.text(5), tradedPrice: price,
            tradedPriceCurrency: row.text(7), commission: row.optionalDecimal(8),
            commissionCurrency: row.optionalText(9), tradeValueId: row.optionalText(10))
    }

    static func records(of export: UploadedExport) -> [TradeRecord] { export.trades }
}

extension TransactionRecord: StoredRecord {
    static var noun: String { "transaction" }

    private static let columns = "id, date_time, transaction_type, currency, amount, commission, transaction_status, value_id"
    static let selectAll = "SELECT \(columns) FROM transactions WHERE portfolio_id = ? ORDER BY id"
    static let selectValueIds = "SELECT value_id FROM transactions WHERE portfolio_id = ? ORDER BY id"
    static let selectById = "SELECT \(columns) FROM transactions WHERE id = ? AND portfolio_id = ?"
    static let selectByValueKey = "SELECT \(columns) FROM transactions WHERE portfolio_id = ? AND value_key = ?"
    static let insert = """
        INSERT INTO transactions (portfolio_id, date_time, transaction_type, currency, amount, commission, \
        transaction_status, value_id, value_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) \
        ON CONFLICT (portfolio_id, value_key) DO NOTHING
        """
    static let delete = "DELETE FROM transactions WHERE id = ? AND portfolio_id = ?"

    func put(_ p: inout some StatementParameters) {
        p.dateTime(dateTime)
        p.text(transactionType.rawValue)
        p.text(currency)
        p.decimal(amount)
        p.decimal(commission)
        p.text(transactionStatus)
        p.text(transactionValueId)
    }

    init(row: some StoredRow) throws {
        guard let dateTime = ServerDateTime(row.text(1)), let type = ServerTransactionType(rawValue: row.text(2)),
            let amount = row.optionalDecimal(4)
        else { throw StorageError(.unreadableRow, table: "transactions", "transaction \(row.integer(0)) is stored in a form this server cannot read") }
        self.init(
            id: row.integer(0), dateTime: dateTime, transactionType: type, currency: row.text(3), amount: amount,
            commission: row.optionalDecimal(5), transactionValueId: row.optionalText(7))
        transactionStatus = row.text(6)
    }

    static func records(of export: UploadedExport) -> [TransactionRecord] { export.transactions }
}
