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
        if try user(named: username) != nil { return false }
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

    // MARK: Trades and transactions

    /// A portfolio's records of one kind, by id.
    func records<R: StoredRecord>(_: R.Type, portfolio: Int64) throws -> [R] {
        try db.rows(R.selectAll, [.integer(portfolio)], R.init(row:))
    }

    func record<R: StoredRecord>(_: R.Type, id: Int64, portfolio: Int64) throws -> R? {
        try db.first(R.selectById, [.integer(id), .integer(portfolio)], R.init(row:))
    }

    /// Stores `records` in one transaction. Each answer is the stored record and whether it was
    /// created now (`false`: the portfolio already held that value id, and nothing was stored).
    /// Without `deduplicate` (the original server's behaviour) every record is stored.
    func add<R: StoredRecord>(_ records: [R], portfolio: Int64, deduplicate: Bool) throws -> [(R, created: Bool)] {
        try db.transaction {
            try records.map { record in
                if deduplicate, let valueId = record.valueId,
                   let existing = try db.first(R.selectByValueId, [.integer(portfolio), .text(valueId)], R.init(row:)) {
                    return (existing, false)
                }
                try db.query(R.insert, [.integer(portfolio)] + record.bindings)
                var stored = record
                stored.id = db.lastInsertedRowId
                return (stored, true)
            }
        }
    }

    /// Deletes one record; `false` when the portfolio has none of that id.
    func delete<R: StoredRecord>(_: R.Type, id: Int64, portfolio: Int64) throws -> Bool {
        try db.query(R.delete, [.integer(id), .integer(portfolio)])
        return db.changes > 0
    }
}
