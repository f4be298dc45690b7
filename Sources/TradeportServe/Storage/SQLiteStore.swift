import Foundation
import TradeportBalances
import TradeportCore

/// The server's data in one SQLite file. Every call goes through this actor (one connection);
/// uniqueness is the file's unique indexes, so servers sharing the file agree too.
actor SQLiteStore: BalancesStorage {
    private let db: SQLiteDatabase

    init(path: String) throws {
        db = try SQLiteDatabase(path: path)
        try db.execute(
            """
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
                commission TEXT, commission_currency TEXT, value_id TEXT, value_key TEXT);
            CREATE TABLE IF NOT EXISTS transactions (
                id INTEGER PRIMARY KEY, portfolio_id INTEGER NOT NULL REFERENCES portfolios(id) ON DELETE CASCADE,
                date_time TEXT NOT NULL, transaction_type TEXT NOT NULL, currency TEXT NOT NULL,
                amount TEXT NOT NULL, commission TEXT, transaction_status TEXT NOT NULL, value_id TEXT, value_key TEXT);
            """)
        try Self.migrate(db)
        // A portfolio's records are found through the value-key index (its first column; rows
        // without a key are in it too): an index on the portfolio alone was one more B-tree to
        // write per record. Listing a portfolio sorts its rows by id instead. Files made before
        // lose it.
        try db.execute(
            """
            CREATE UNIQUE INDEX IF NOT EXISTS trades_by_value_key ON trades (portfolio_id, value_key);
            CREATE UNIQUE INDEX IF NOT EXISTS transactions_by_value_key ON transactions (portfolio_id, value_key);
            DROP INDEX IF EXISTS trades_by_portfolio;
            DROP INDEX IF EXISTS transactions_by_portfolio;
            """)
    }

    /// A file written before value keys: each table gains the column, set to the value id of the
    /// first record holding it in its portfolio (what the server answered with since).
    private static func migrate(_ db: SQLiteDatabase) throws {
        for table in ["trades", "transactions"] {
            let columns = try db.rows("SELECT name FROM pragma_table_info('\(table)')") { $0.text(0) }
            guard !columns.contains("value_key") else { continue }
            try db.transaction {
                try db.execute(
                    """
                    ALTER TABLE \(table) ADD COLUMN value_key TEXT;
                    UPDATE \(table) SET value_key = value_id WHERE value_id IS NOT NULL AND id IN
                        (SELECT min(id) FROM \(table) WHERE value_id IS NOT NULL GROUP BY portfolio_id, value_id);
                    DROP INDEX IF EXISTS \(table)_by_value_id;
                    """)
            }
        }
    }

    // MARK: Users

    func addUser(username: String, email: String, passwordHash: String) throws -> Bool {
        try db.first(
            "INSERT INTO users (username, email, password_hash) VALUES (?, ?, ?) ON CONFLICT (username) DO NOTHING RETURNING id",
            [.text(username), .text(email), .text(passwordHash)]
        ) { $0.integer(0) } != nil
    }

    func user(named username: String) throws -> (id: Int64, passwordHash: String)? {
        try db.first("SELECT id, password_hash FROM users WHERE username = ?", [.text(username)]) { row in
            (id: row.integer(0), passwordHash: row.text(1))
        }
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

    func addPortfolio(named name: String, owner: Int64) throws -> (PortfolioRecord, created: Bool) {
        if let id = try db.first(
            "INSERT INTO portfolios (owner_id, name) VALUES (?, ?) ON CONFLICT (owner_id, name) DO NOTHING RETURNING id",
            [.integer(owner), .text(name)], { $0.integer(0) })
        {
            return (PortfolioRecord(id: id, name: name), true)
        }
        guard let existing = try portfolio(named: name, owner: owner) else {
            throw StorageError(.vanished, table: "portfolios", "the portfolio '\(name)' is neither stored nor there")
        }
        return (existing, false)
    }

    func renamePortfolio(id: Int64, to name: String, owner: Int64) throws -> PortfolioRename {
        guard try portfolio(id: id, owner: owner) != nil else { return .notFound }
        do {
            try db.query("UPDATE portfolios SET name = ? WHERE id = ? AND owner_id = ?", [.text(name), .integer(id), .integer(owner)])
        } catch let error as SQLiteError where error.isConstraintViolation {
            if let other = try portfolio(named: name, owner: owner) { return .nameTaken(other) }
            throw error
        }
        return .renamed(PortfolioRecord(id: id, name: name))
    }

    func deletePortfolio(id: Int64, owner: Int64) throws -> Bool {
        try db.query("DELETE FROM portfolios WHERE id = ? AND owner_id = ?", [.integer(id), .integer(owner)])
        return db.changes > 0
    }

    // MARK: Trades and transactions

    func records<R: StoredRecord>(_: R.Type, portfolio: Int64) throws -> [R] {
        try db.rows(R.selectAll, [.integer(portfolio)]) { try R(row: $0) }
    }

    func valueIds<R: StoredRecord>(_: R.Type, portfolio: Int64) throws -> [String?] {
        try db.rows(R.selectValueIds, [.integer(portfolio)]) { $0.optionalText(0) }
    }

    func record<R: StoredRecord>(_: R.Type, id: Int64, portfolio: Int64) throws -> R? {
        try db.first(R.selectById, [.integer(id), .integer(portfolio)]) { try R(row: $0) }
    }

    func add<R: StoredRecord>(_ records: [R], portfolio: Int64, deduplicate: Bool) throws -> [(R, created: Bool)] {
        try db.transaction {
            let insert = try db.statement(R.insert)
            return try records.map { record in
                let key = deduplicate ? record.valueId : nil
                let changed = try db.change(insert) { p in
                    p.integer(portfolio)
                    record.put(&p)
                    p.text(key)
                }
                if changed > 0 {
                    var stored = record
                    stored.id = db.lastInsertedRowId
                    return (stored, true)
                }
                guard let key, let existing = try db.first(R.selectByValueKey, [.integer(portfolio), .text(key)], { try R(row: $0) }) else {
                    throw StorageError(.vanished, table: R.resource, "a \(R.noun) was neither stored nor found under its value id")
                }
                return (existing, false)
            }
        }
    }

    func delete<R: StoredRecord>(_: R.Type, id: Int64, portfolio: Int64) throws -> Bool {
        try db.query(R.delete, [.integer(id), .integer(portfolio)])
        return db.changes > 0
    }
}
