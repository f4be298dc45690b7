import Foundation
import TradeportBalances
import TradeportCore

/// The server's data in one SQLite file: users, their portfolios, and the portfolios' trades and
/// transactions. Every call goes through this actor, so a check-then-insert (the uniqueness rule)
/// cannot race another request.
actor BalancesStore {
    private let db: SQLiteDatabase

    init(path: String) throws {
        db = try SQLiteDatabase(path: path)
        try db.execute("""
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA foreign_keys = ON;
            CREATE TABLE IF NOT EXISTS users (
                id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE, email TEXT NOT NULL, password_hash TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS portfolios (
                id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL, UNIQUE (owner_id, name));
            CREATE TABLE IF NOT EXISTS trades (
                id INTEGER PRIMARY KEY, portfolio_id INTEGER NOT NULL REFERENCES portfolios(id) ON DELETE CASCADE,
                date_time TEXT NOT NULL, instrument TEXT NOT NULL, trade_type TEXT NOT NULL,
                traded_quantity TEXT NOT NULL, traded_quantity_currency TEXT NOT NULL,
                traded_price TEXT NOT NULL, traded_price_currency TEXT NOT NULL,
                commission TEXT, commission_currency TEXT, value_id TEXT);
            CREATE INDEX IF NOT EXISTS trades_by_value_id ON trades (portfolio_id, value_id);
            CREATE TABLE IF NOT EXISTS transactions (
                id INTEGER PRIMARY KEY, portfolio_id INTEGER NOT NULL REFERENCES portfolios(id) ON DELETE CASCADE,
                date_time TEXT NOT NULL, transaction_type TEXT NOT NULL, currency TEXT NOT NULL,
                amount TEXT NOT NULL, commission TEXT, transaction_status TEXT NOT NULL, value_id TEXT);
            CREATE INDEX IF NOT EXISTS transactions_by_value_id ON transactions (portfolio_id, value_id);
            """)
    }

    // MARK: Users

    /// Adds a user; `false` when the name is taken.
    func addUser(username: String, email: String, passwordHash: String) throws -> Bool {
        if try db.scalar("SELECT id FROM users WHERE username = ?", [.text(username)]) != nil { return false }
        try db.query("INSERT INTO users (username, email, password_hash) VALUES (?, ?, ?)",
                     [.text(username), .text(email), .text(passwordHash)])
        return true
    }

    /// A user's id and password hash.
    func user(named username: String) throws -> (id: Int64, passwordHash: String)? {
        var found: (Int64, String)?
        try db.query("SELECT id, password_hash FROM users WHERE username = ?", [.text(username)]) { row in
            found = (row.integer(0), row.text(1))
        }
        return found.map { (id: $0.0, passwordHash: $0.1) }
    }

    // MARK: Portfolios

    private static func portfolio(_ row: SQLiteDatabase.Row) -> PortfolioRecord {
        PortfolioRecord(id: row.integer(0), name: row.text(1))
    }

    func portfolios(owner: Int64) throws -> [PortfolioRecord] {
        try db.rows("SELECT id, name FROM portfolios WHERE owner_id = ? ORDER BY id", [.integer(owner)], Self.portfolio)
    }

    func portfolio(id: Int64, owner: Int64) throws -> PortfolioRecord? {
        try db.first("SELECT id, name FROM portfolios WHERE id = ? AND owner_id = ?", [.integer(id), .integer(owner)], Self.portfolio)
    }

    func portfolio(named name: String, owner: Int64) throws -> PortfolioRecord? {
        try db.first("SELECT id, name FROM portfolios WHERE name = ? AND owner_id = ?", [.text(name), .integer(owner)], Self.portfolio)
    }

    /// Adds a portfolio, or answers the caller's one of that name with `created == false`.
    func addPortfolio(named name: String, owner: Int64) throws -> (PortfolioRecord, created: Bool) {
        if let existing = try portfolio(named: name, owner: owner) { return (existing, false) }
        try db.query("INSERT INTO portfolios (owner_id, name) VALUES (?, ?)", [.integer(owner), .text(name)])
        return (PortfolioRecord(id: db.lastInsertedRowId, name: name), true)
    }

    enum Rename {
        case renamed(PortfolioRecord)
        case notFound
        /// The caller has another portfolio of that name.
        case nameTaken(PortfolioRecord)
    }

    /// Renames the caller's portfolio `id`; names stay unique per user.
    func renamePortfolio(id: Int64, to name: String, owner: Int64) throws -> Rename {
        guard try portfolio(id: id, owner: owner) != nil else { return .notFound }
        if let other = try portfolio(named: name, owner: owner), other.id != id { return .nameTaken(other) }
        try db.query("UPDATE portfolios SET name = ? WHERE id = ? AND owner_id = ?", [.text(name), .integer(id), .integer(owner)])
        return .renamed(PortfolioRecord(id: id, name: name))
    }

    /// Deletes a portfolio with its operations; `false` when the caller has none of that id.
    func deletePortfolio(id: Int64, owner: Int64) throws -> Bool {
        try db.query("DELETE FROM portfolios WHERE id = ? AND owner_id = ?", [.integer(id), .integer(owner)])
        return db.changes > 0
    }

    // MARK: Trades

    private static let tradeColumns = """
        id, date_time, instrument, trade_type, traded_quantity, traded_quantity_currency, traded_price, \
        traded_price_currency, commission, commission_currency, value_id
        """

    private static func trade(_ row: SQLiteDatabase.Row) throws -> TradeRecord {
        guard let dateTime = ServerDateTime(row.text(1)), let type = ServerTradeType(rawValue: row.text(3)),
              let quantity = ExactDecimal(jsonNumber: row.text(4)), let price = ExactDecimal(jsonNumber: row.text(6))
        else { throw SQLiteError(code: 0, message: "trade \(row.integer(0)) is stored in a form this server cannot read") }
        return TradeRecord(
            id: row.integer(0), dateTime: dateTime, instrument: row.text(2), tradeType: type,
            tradedQuantity: quantity, tradedQuantityCurrency: row.text(5), tradedPrice: price,
            tradedPriceCurrency: row.text(7), commission: row.optionalText(8).flatMap { ExactDecimal(jsonNumber: $0) },
            commissionCurrency: row.optionalText(9), tradeValueId: row.optionalText(10))
    }

    func trades(portfolio: Int64) throws -> [TradeRecord] {
        try db.rows("SELECT \(Self.tradeColumns) FROM trades WHERE portfolio_id = ? ORDER BY id", [.integer(portfolio)], Self.trade)
    }

    func trade(id: Int64, portfolio: Int64) throws -> TradeRecord? {
        try db.first("SELECT \(Self.tradeColumns) FROM trades WHERE id = ? AND portfolio_id = ?", [.integer(id), .integer(portfolio)], Self.trade)
    }

    private func trade(valueId: String, portfolio: Int64) throws -> TradeRecord? {
        try db.first("SELECT \(Self.tradeColumns) FROM trades WHERE portfolio_id = ? AND value_id = ? ORDER BY id LIMIT 1",
                     [.integer(portfolio), .text(valueId)], Self.trade)
    }

    /// Stores `records` in one transaction. Each answer is the stored record and whether it was
    /// created now (`false`: the portfolio already held that value id, and nothing was stored).
    /// Without `deduplicate` (the original server's behaviour) every record is stored.
    func addTrades(_ records: [TradeRecord], portfolio: Int64, deduplicate: Bool) throws -> [(TradeRecord, created: Bool)] {
        try db.transaction {
            try records.map { record in
                if deduplicate, let valueId = record.tradeValueId, let existing = try trade(valueId: valueId, portfolio: portfolio) {
                    return (existing, false)
                }
                try db.query("""
                    INSERT INTO trades (portfolio_id, date_time, instrument, trade_type, traded_quantity, \
                    traded_quantity_currency, traded_price, traded_price_currency, commission, commission_currency, value_id) \
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [
                        .integer(portfolio), .text(record.dateTime.textWithSeconds), .text(record.instrument),
                        .text(record.tradeType.rawValue), .text(record.tradedQuantity.description),
                        .text(record.tradedQuantityCurrency), .text(record.tradedPrice.description),
                        .text(record.tradedPriceCurrency), record.commission.map { .text($0.description) } ?? .null,
                        record.commissionCurrency.map { .text($0) } ?? .null, record.tradeValueId.map { .text($0) } ?? .null,
                    ])
                var stored = record
                stored.id = db.lastInsertedRowId
                return (stored, true)
            }
        }
    }

    func deleteTrade(id: Int64, portfolio: Int64) throws -> Bool {
        try db.query("DELETE FROM trades WHERE id = ? AND portfolio_id = ?", [.integer(id), .integer(portfolio)])
        return db.changes > 0
    }

    // MARK: Transactions

    private static let transactionColumns = "id, date_time, transaction_type, currency, amount, commission, transaction_status, value_id"

    private static func transaction(_ row: SQLiteDatabase.Row) throws -> TransactionRecord {
        guard let dateTime = ServerDateTime(row.text(1)), let type = ServerTransactionType(rawValue: row.text(2)),
              let amount = ExactDecimal(jsonNumber: row.text(4))
        else { throw SQLiteError(code: 0, message: "transaction \(row.integer(0)) is stored in a form this server cannot read") }
        var record = TransactionRecord(
            id: row.integer(0), dateTime: dateTime, transactionType: type, currency: row.text(3), amount: amount,
            commission: row.optionalText(5).flatMap { ExactDecimal(jsonNumber: $0) }, transactionValueId: row.optionalText(7))
        record.transactionStatus = row.text(6)
        return record
    }

    func transactions(portfolio: Int64) throws -> [TransactionRecord] {
        try db.rows("SELECT \(Self.transactionColumns) FROM transactions WHERE portfolio_id = ? ORDER BY id", [.integer(portfolio)], Self.transaction)
    }

    func transaction(id: Int64, portfolio: Int64) throws -> TransactionRecord? {
        try db.first("SELECT \(Self.transactionColumns) FROM transactions WHERE id = ? AND portfolio_id = ?",
                     [.integer(id), .integer(portfolio)], Self.transaction)
    }

    private func transaction(valueId: String, portfolio: Int64) throws -> TransactionRecord? {
        try db.first("SELECT \(Self.transactionColumns) FROM transactions WHERE portfolio_id = ? AND value_id = ? ORDER BY id LIMIT 1",
                     [.integer(portfolio), .text(valueId)], Self.transaction)
    }

    func addTransactions(_ records: [TransactionRecord], portfolio: Int64, deduplicate: Bool) throws -> [(TransactionRecord, created: Bool)] {
        try db.transaction {
            try records.map { record in
                if deduplicate, let valueId = record.transactionValueId,
                   let existing = try transaction(valueId: valueId, portfolio: portfolio) {
                    return (existing, false)
                }
                try db.query("""
                    INSERT INTO transactions (portfolio_id, date_time, transaction_type, currency, amount, commission, \
                    transaction_status, value_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, [
                        .integer(portfolio), .text(record.dateTime.textWithSeconds), .text(record.transactionType.rawValue),
                        .text(record.currency), .text(record.amount.description),
                        record.commission.map { .text($0.description) } ?? .null, .text(record.transactionStatus),
                        record.transactionValueId.map { .text($0) } ?? .null,
                    ])
                var stored = record
                stored.id = db.lastInsertedRowId
                return (stored, true)
            }
        }
    }

    func deleteTransaction(id: Int64, portfolio: Int64) throws -> Bool {
        try db.query("DELETE FROM transactions WHERE id = ? AND portfolio_id = ?", [.integer(id), .integer(portfolio)])
        return db.changes > 0
    }
}
