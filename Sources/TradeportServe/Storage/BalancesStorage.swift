import TradeportBalances
import TradeportCore

/// Where the server keeps its users, their portfolios and the portfolios' trades and transactions:
/// an SQLite file (`SQLiteStore`, the embedded default) or a PostgreSQL database many instances
/// share (`PostgresStore`). Uniqueness (a username, a portfolio name per user, a value id per
/// portfolio) is the database's unique indexes, so it holds across processes: two servers over one
/// database store an operation once.
protocol BalancesStorage: Sendable {
    /// Adds a user; `false` when the name is taken.
    func addUser(username: String, email: String, passwordHash: String) async throws -> Bool
    /// A user's id and password hash.
    func user(named username: String) async throws -> (id: Int64, passwordHash: String)?

    func portfolios(owner: Int64) async throws -> [PortfolioRecord]
    func portfolio(id: Int64, owner: Int64) async throws -> PortfolioRecord?
    func portfolio(named name: String, owner: Int64) async throws -> PortfolioRecord?
    /// Adds a portfolio, or answers the caller's one of that name with `created == false`.
    func addPortfolio(named name: String, owner: Int64) async throws -> (PortfolioRecord, created: Bool)
    /// Renames the caller's portfolio `id`; names stay unique per user.
    func renamePortfolio(id: Int64, to name: String, owner: Int64) async throws -> PortfolioRename
    /// Deletes a portfolio with its operations; `false` when the caller has none of that id.
    func deletePortfolio(id: Int64, owner: Int64) async throws -> Bool

    /// A portfolio's records of one kind, by id.
    func records<R: StoredRecord>(_: R.Type, portfolio: Int64) async throws -> [R]
    /// The value ids of those records, in the same order (nil for a record without one).
    func valueIds<R: StoredRecord>(_: R.Type, portfolio: Int64) async throws -> [String?]
    func record<R: StoredRecord>(_: R.Type, id: Int64, portfolio: Int64) async throws -> R?
    /// Stores `records` in one transaction. Each answer is the stored record and whether it was
    /// created now (`false`: the portfolio already held that value id, and nothing was stored).
    /// Without `deduplicate` (the original server's behaviour) every record is stored.
    func add<R: StoredRecord>(_ records: [R], portfolio: Int64, deduplicate: Bool) async throws -> [(R, created: Bool)]
    /// Deletes one record; `false` when the portfolio has none of that id.
    func delete<R: StoredRecord>(_: R.Type, id: Int64, portfolio: Int64) async throws -> Bool
}
